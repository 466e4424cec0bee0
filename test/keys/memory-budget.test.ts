import { describeAccountBudget } from './budget-contract.js';

describeAccountBudget('in process (MemoryRateLimiter)', async () => ({}));
