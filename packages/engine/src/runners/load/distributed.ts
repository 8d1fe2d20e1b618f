/** What the server needs to run a load test on several generators and merge their results (issue 12). */
export { decodeSamples, mergeLoadResults, SAMPLES_ARTIFACT, type LoadPart, type MergedLoad } from './merge.ts';
export { shareOf, type LoadGenerator } from './generators.ts';
export { loadInput, MAX_GENERATORS, type LoadInput } from './options.ts';
