// Public face of the auth feature: the password and reset-token writes the users feature shares.
export { retireResetTokens, setPasswordHash } from './queries.js';
