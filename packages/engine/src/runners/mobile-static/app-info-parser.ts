import { createRequire } from 'node:module';

/**
 * The parts of app-info-parser (CommonJS, no types) used on bytes we have already read and checked: its binary
 * AndroidManifest.xml parser, and the plist parsers it depends on, loaded from its own dependencies so their
 * versions stay the ones it was released with. Its zip reading is not used: it inflates whole entries in memory.
 */
const require = createRequire(import.meta.url);
const fromParser = createRequire(require.resolve('app-info-parser'));

export const ManifestXmlParser = require('app-info-parser/src/xml-parser/manifest') as new (
  buffer: Buffer,
  options?: { ignore?: string[] },
) => { parse(): Record<string, unknown> };

export const parseXmlPlist = (fromParser('plist') as { parse(xml: string): unknown }).parse;
export const parseBinaryPlist = (fromParser('bplist-parser') as { parseBuffer(buf: Buffer): unknown[] }).parseBuffer;
