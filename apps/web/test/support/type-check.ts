import path from 'node:path';
import ts from 'typescript';

const WEB_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Type-checks `source` as if it were a file in apps/web/test, with apps/web/tsconfig.json, and
 * returns the compiler's messages for that file (empty when it compiles).
 */
export function typeCheck(source: string): string[] {
  const configPath = path.join(WEB_ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, WEB_ROOT);
  const fileName = path.join(WEB_ROOT, 'test', '__type-check__.ts');
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === fileName ? source : readFile(file));
  host.fileExists = (file) => file === fileName || fileExists(file);
  host.getSourceFile = (file, language, ...rest) =>
    file === fileName
      ? ts.createSourceFile(file, source, language, true)
      : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([fileName], { ...options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fileName))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
