// Stack traces through the server's bundle name the TypeScript file and line, as
// --enable-source-maps makes them for every module Node loads itself: a script compiled with
// vm.Script (boot/server-loader.ts) is not among those on Node 20, and the bundle's frames would
// read `server.cjs:2:1834519`. The map is read at the first stack trace, not at start.
import { readFileSync } from 'node:fs';
import { findSourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

interface Position {
  source: string;
  line: number;
  column: number;
}

/** Maps the bundle's frames with its .map file, and every other file's as Node would. */
export function mapBundleStackTraces(bundle: string): void {
  let bundleMap: TraceMap | null | undefined;
  const readBundleMap = (): TraceMap | null => {
    if (bundleMap !== undefined) return bundleMap;
    try {
      bundleMap = new TraceMap(
        readFileSync(`${bundle}.map`, 'utf8'),
        pathToFileURL(`${bundle}.map`).href,
      );
    } catch {
      bundleMap = null;
    }
    return bundleMap;
  };

  const originalOf = (file: string, line: number, column: number): Position | null => {
    if (file === bundle) {
      const map = readBundleMap();
      if (!map) return null;
      const found = originalPositionFor(map, { line, column: column - 1 });
      if (found.source === null || found.line === null || found.column === null) return null;
      return { source: toPath(found.source), line: found.line, column: found.column + 1 };
    }
    // Files Node loaded itself: the maps --enable-source-maps already read.
    const entry = findSourceMap(file)?.findEntry(line - 1, column - 1);
    if (!entry || !('originalSource' in entry)) return null;
    return {
      source: toPath(entry.originalSource),
      line: entry.originalLine + 1,
      column: entry.originalColumn + 1,
    };
  };

  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => {
    const frames = sites.map((site) => {
      const text = site.toString();
      const file = site.getFileName();
      const line = site.getLineNumber();
      const column = site.getColumnNumber();
      if (!file || line === null || column === null) return `    at ${text}`;
      const original = originalOf(toPath(file), line, column);
      if (!original) return `    at ${text}`;
      return `    at ${text.replace(
        `${file}:${line}:${column}`,
        `${original.source}:${original.line}:${original.column}`,
      )}`;
    });
    return [describeError(error), ...frames].join('\n');
  };
}

function toPath(source: string): string {
  return source.startsWith('file://') ? fileURLToPath(source) : source;
}

/** The first line V8 writes: `Name: message`, whatever the object's toString does. */
function describeError(error: unknown): string {
  try {
    return String(error);
  } catch {
    return '<error>';
  }
}
