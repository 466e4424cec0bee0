/** Theme and CSS variables of the wizard's document (the embeddable page and the MCP App alike). */

/** Sets a --svc-* variable; for the primary colour also the text colour on it (black or white, whichever contrasts more). */
export function setVariable(name: string, value: string): void {
  const root = document.documentElement;
  root.style.setProperty(name, value);
  if (name !== '--svc-primary') return;
  const probe = document.createElement('span');
  probe.style.color = value;
  document.body.appendChild(probe);
  const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  probe.remove();
  if (rgb.length < 3) return;
  const [r, g, b] = rgb.map((c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  root.style.setProperty('--svc-on-primary', (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? '#000000' : '#ffffff');
}

export function applyTheme(theme: string, primaryColor?: string): void {
  document.documentElement.dataset.theme = theme;
  if (primaryColor) setVariable('--svc-primary', `#${primaryColor}`);
}
