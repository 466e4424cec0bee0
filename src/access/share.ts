import type { Principal } from '../accounts/principal.js';
import { openGrant, type GrantedAccess, type GrantPermission } from '../accounts/grants.js';
import { giveBackAllowance } from '../memoir/heir-allowance.js';
import type { AccessServices } from './services.js';

/**
 * Opens the share an operation acts through (the input's `shareId`), for the caller's account: the only path by
 * which one account reads another's records. Throws 404 when the caller holds no such share and 403
 * SHARE_NOT_AVAILABLE when it is not open or does not permit this use.
 */
export async function openShare(
  services: Pick<AccessServices, 'store' | 'clock'>,
  permission: GrantPermission,
  input: { shareId: string },
  principal: Principal,
): Promise<GrantedAccess> {
  const opened = await openGrant(services.store, input.shareId, principal.ownerId, permission, services.clock.now());
  const giveBack = (credits: number) =>
    giveBackAllowance(services.store, opened.grant.id, credits, services.clock.now());
  return { ...opened, allowance: { ...opened.allowance, giveBack } };
}
