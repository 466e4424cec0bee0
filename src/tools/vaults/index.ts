import type { AnyTool } from '../define.js';
import { addVaultItemTool } from './add-vault-item.js';
import { createVaultTool } from './create-vault.js';
import { deleteVaultItemTool } from './delete-vault-item.js';
import { deleteVaultTool } from './delete-vault.js';
import { downloadSharedVaultItemTool } from './download-shared-vault-item.js';
import { downloadVaultItemTool } from './download-vault-item.js';
import { getSharedVaultItemTool } from './get-shared-vault-item.js';
import { getVaultItemTool } from './get-vault-item.js';
import { getVaultTool } from './get-vault.js';
import { linkVaultPlanTool } from './link-vault-plan.js';
import { listSharedVaultItemsTool } from './list-shared-vault-items.js';
import { listVaultsTool } from './list-vaults.js';
import { updateVaultItemTool } from './update-vault-item.js';
import { uploadVaultItemTool } from './upload-vault-item.js';

/** Vaults: the owner's tools, then the heir's. */
export const VAULT_TOOLS: readonly AnyTool[] = [
  createVaultTool,
  listVaultsTool,
  getVaultTool,
  deleteVaultTool,
  addVaultItemTool,
  uploadVaultItemTool,
  getVaultItemTool,
  downloadVaultItemTool,
  updateVaultItemTool,
  deleteVaultItemTool,
  linkVaultPlanTool,
  listSharedVaultItemsTool,
  getSharedVaultItemTool,
  downloadSharedVaultItemTool,
];
