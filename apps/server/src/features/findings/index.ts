// The findings feature's face: what other features may use of it. Everything else in this folder is its own.
export { falsePositiveMatcher } from './false-positives.ts';
