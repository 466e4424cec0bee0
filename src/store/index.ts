export * from './port.js';
export { openLowdbStore } from './lowdb/index.js';
