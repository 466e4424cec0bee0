/** What every chain's package shares: the contract it is made from, the README warnings, the registration call. */
import type { StoredContract } from '../stored.js';

/** The stored contract a package is made from (as the account reads it). */
export type PackageContract = StoredContract;

/** Said in every README: what registration checks, and whose key proves life. */
export const WARNINGS = [
  '## Before you start',
  '',
  "- **The estate owner's key must sign every check-in.** A check-in from any other key is refused by the contract " +
    "(or, where anyone may send, does not count as proof of life); keep the owner's key where the owner can use it.",
  '- **Deploy exactly the packaged code with the packaged arguments.** svc verifies a registered deployment against ' +
    'the code and plan it generated: anything else (edited source, other beneficiaries or shares, a proxy in front) ' +
    'makes registration fail verification, and the deployment is not watched.',
  '',
];

/** The REST call registering a deployment, as a shell command with `network` and placeholders filled in. */
export function registerCall(id: string, network: string, address: string, txHash: string): string {
  return [
    `curl -X POST "$SVC_URL/api/v1/contracts/${id}/deployments" \\`,
    '  -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\',
    `  -d '{"network": ${network}, "address": "${address}", "txHash": "${txHash}"}'`,
  ].join('\n');
}
