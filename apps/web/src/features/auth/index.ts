// The auth feature's public face: what other features may use (the profile checks a new password the
// same way the reset screen does). Everything else in this folder is internal to the feature.
export { validatePasswordChange } from './validation.js';
