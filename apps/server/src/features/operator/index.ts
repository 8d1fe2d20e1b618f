// The operator feature's face: what other features may use of it. Everything else in this folder is its own.
export { operatorAccessAudit } from './access-audit.ts';
export { OPERATOR_TOKEN_FILE, loadOperatorToken } from './token.ts';
