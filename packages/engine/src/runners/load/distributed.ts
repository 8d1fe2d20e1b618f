/** What the server needs to run a load test on several generators and merge their results (issue 12). */
export { decodeSamples, mergeLoadResults, type LoadPart, type MergedLoad } from './merge.ts';
export { shareOf, type LoadGenerator } from './generators.ts';
export { loadInput, MAX_GENERATORS, type LoadInput } from './options.ts';
export { SAMPLES_ARTIFACT } from './index.ts';
