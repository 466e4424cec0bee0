// Loads the solc pool the way bin/svc.js loads the service: plain node plus tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { SolcPool } = await import('../../../src/contracts/evm/pool.ts');
const pool = new SolcPool({ size: 1 });
const out = await pool.compile(process.argv[2]);
await pool.close();
process.stdout.write(out.contractName);
