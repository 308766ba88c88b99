/** The users operations of the catalogue (services/operation.ts); declared here as the doors move onto it. */
export {};
