// The load feature's face: what other features may use of it. Everything else in this folder is its own.
export { dispatchLoadGenerators, executeGeneratorJob, reapStaleGenerators } from './load-generators.ts';
export { fetchGeneratorJob } from './generator-repository.ts';
