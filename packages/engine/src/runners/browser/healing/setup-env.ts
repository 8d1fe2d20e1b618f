/** The environment variable naming the healing setup file: set for `playwright test`, read by its workers. */
export const HEALING_SETUP_ENV = 'FULLSTOP_HEALING';
