/**
 * A group's matrix (engines, devices, networks in the manifest, decision 0078): each axis the group sets applies to
 * every test of the group whose kind takes the matrix (browser, accessibility) and that does not set that axis
 * itself. Load, API and the other kinds of the group are left as they are. Applied where the manifest's tests
 * become definitions, for validation and for runs alike.
 */
import { MATRIX_AXES, MATRIX_KINDS, type MatrixAxis } from '../lib/cell-matrix.ts';
import type { ManifestTest, SuiteManifest } from './manifest.ts';

type ManifestGroup = SuiteManifest['groups'][number];

/** A test's options with the axes its group sets and it does not, and which axes came from the group. */
export function withGroupMatrix(group: ManifestGroup, test: ManifestTest): { options: Record<string, unknown>; inherited: MatrixAxis[] } {
  if (!MATRIX_KINDS.includes(test.kind)) return { options: test.options, inherited: [] };
  const inherited = MATRIX_AXES.filter((axis) => group[axis] !== undefined && test.options[axis] === undefined);
  if (inherited.length === 0) return { options: test.options, inherited };
  return { options: { ...test.options, ...Object.fromEntries(inherited.map((axis) => [axis, group[axis]])) }, inherited };
}
