import type { AnyTool } from './define.js';
import { createAccountTool } from './accounts/create-account.js';
import { createAccountKeyTool } from './accounts/create-account-key.js';
import { getAccountTool } from './accounts/get-account.js';
import { listAccountsTool } from './accounts/list-accounts.js';
import { suspendAccountTool } from './accounts/suspend-account.js';
import { updateAccountTool } from './accounts/update-account.js';
import { changePasswordTool } from './auth/change-password.js';
import { getSessionTool } from './auth/get-session.js';
import { updateProfileTool } from './auth/update-profile.js';
import { loginTool } from './auth/login.js';
import { logoutTool } from './auth/logout.js';
import { registerTool } from './auth/register.js';
import {
  changeEmailTool,
  confirmEmailTool,
  forgotPasswordTool,
  resetPasswordTool,
  verifyEmailTool,
} from './auth/email-links.js';
import { getCreditWalletTool } from './credits/get-credit-wallet.js';
import { grantCreditsTool } from './credits/grant-credits.js';
import { listCreditHistoryTool } from './credits/list-credit-history.js';
import { listCreditPacksTool } from './credits/list-credit-packs.js';
import { purchaseCreditsTool } from './credits/purchase-credits.js';
import { setCreditAutoReloadTool } from './credits/set-credit-auto-reload.js';
import { generateLegalDocumentTool, listLegalTemplatesTool, signLegalDocumentTool } from './legal/legal.js';
import { compileContract } from './contracts/compile-contract.js';
import { estimateGas } from './contracts/estimate-gas.js';
import { generateContractTool } from './contracts/generate-contract.js';
import { deleteContractTool, getContractTool, listContractsTool } from './contracts/stored-contracts.js';
import { getContractPackageTool } from './contracts/contract-package.js';
import {
  deleteDeploymentTool,
  getDeploymentTool,
  listDeploymentsTool,
  registerDeploymentTool,
} from './contracts/deployments.js';
import { updateDeploymentWatchTool } from './contracts/deployment-watch.js';
import { listTemplates } from './contracts/list-templates.js';
import { validatePlanTool } from './contracts/validate-plan.js';
import { createEmbedSessionTool } from './embed/create-embed-session.js';
import { rotateEmbedSecretTool } from './embed/rotate-embed-secret.js';
import { openContractWizardTool } from './embed/open-contract-wizard.js';
import { getDoc } from './docs/get-doc.js';
import { calculateInheritance } from './law/calculate-inheritance.js';
import { checkPlanTool } from './law/check-plan.js';
import { getJurisdiction } from './law/get-jurisdiction.js';
import { listJurisdictions } from './law/list-jurisdictions.js';
import { searchDocs } from './docs/search-docs.js';
import { createApiKeyTool } from './keys/create-api-key.js';
import { getApiKeyTool } from './keys/get-api-key.js';
import { listApiKeysTool } from './keys/list-api-keys.js';
import { revokeApiKeyTool } from './keys/revoke-api-key.js';
import { updateApiKeyTool } from './keys/update-api-key.js';
import { createWebhookTool } from './webhooks/create-webhook.js';
import { deleteWebhookTool } from './webhooks/delete-webhook.js';
import { listEventTypesTool } from './webhooks/list-event-types.js';
import { listWebhookEventsTool } from './webhooks/list-webhook-events.js';
import { listWebhooksTool } from './webhooks/list-webhooks.js';
import { regenerateWebhookSecretTool } from './webhooks/regenerate-webhook-secret.js';
import { testWebhookTool } from './webhooks/test-webhook.js';
import { updateWebhookTool } from './webhooks/update-webhook.js';
import { MEMOIR_TOOLS } from './memoir/index.js';
import { VAULT_TOOLS } from './vaults/index.js';

/** Every tool the service offers, in the order they are listed. */
export const TOOLS: readonly AnyTool[] = [
  listTemplates,
  generateContractTool,
  listContractsTool,
  getContractTool,
  getContractPackageTool,
  deleteContractTool,
  registerDeploymentTool,
  listDeploymentsTool,
  getDeploymentTool,
  updateDeploymentWatchTool,
  deleteDeploymentTool,
  compileContract,
  estimateGas,
  validatePlanTool,
  getJurisdiction,
  listJurisdictions,
  calculateInheritance,
  checkPlanTool,
  createApiKeyTool,
  listApiKeysTool,
  getApiKeyTool,
  updateApiKeyTool,
  revokeApiKeyTool,
  createWebhookTool,
  listWebhooksTool,
  updateWebhookTool,
  deleteWebhookTool,
  regenerateWebhookSecretTool,
  testWebhookTool,
  listWebhookEventsTool,
  listEventTypesTool,
  createEmbedSessionTool,
  rotateEmbedSecretTool,
  openContractWizardTool,
  searchDocs,
  getDoc,
  createAccountTool,
  listAccountsTool,
  getAccountTool,
  updateAccountTool,
  suspendAccountTool,
  createAccountKeyTool,
  registerTool,
  loginTool,
  logoutTool,
  getSessionTool,
  updateProfileTool,
  changePasswordTool,
  verifyEmailTool,
  forgotPasswordTool,
  resetPasswordTool,
  changeEmailTool,
  confirmEmailTool,
  listCreditPacksTool,
  getCreditWalletTool,
  purchaseCreditsTool,
  setCreditAutoReloadTool,
  listCreditHistoryTool,
  grantCreditsTool,
  generateLegalDocumentTool,
  listLegalTemplatesTool,
  signLegalDocumentTool,
  ...MEMOIR_TOOLS,
  ...VAULT_TOOLS,
];

/** The tools offered over MCP (session routes are REST only). */
export const MCP_TOOLS: readonly AnyTool[] = TOOLS.filter((t) => t.mcp !== false);

// A tool working across accounts must be the operator's alone.
for (const t of TOOLS) {
  if (t.crossAccount && (t.tiers?.length !== 1 || t.tiers[0] !== 'internal'))
    throw new Error(`${t.name}: crossAccount tools must be internal-tier only`);
  if (t.grant && !('shareId' in t.input.shape))
    throw new Error(`${t.name}: tools acting through a share must take its shareId`);
}

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
