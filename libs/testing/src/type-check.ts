import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

export interface TypeDiagnostic {
  line: number;
  code: number;
  message: string;
}

/**
 * Type-checks one file of the workspace as `tsc` does (tsconfig.base.json's options and paths) and
 * answers its diagnostics. `stripExpectErrors`: check the file with every `// @ts-expect-error`
 * comment removed, so a type-level test shows that each of those lines really fails to compile
 * (and that the check itself can fail). Jest's transform (swc) does not type-check; this does.
 */
export function typeDiagnostics(file: string, opts: { stripExpectErrors?: boolean } = {}): TypeDiagnostic[] {
  const configPath = path.join(ROOT, 'tsconfig.base.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT, undefined, configPath);
  const options = { ...parsed.options, noEmit: true };
  const host = ts.createCompilerHost(options, true);
  const target = path.resolve(file);
  if (opts.stripExpectErrors) {
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
      if (path.resolve(name) !== target) return getSourceFile(name, languageVersion, onError, shouldCreate);
      // Blank the comment but keep the line, so line numbers stay those of the file.
      const text = ts.sys.readFile(name)!.replace(/\/\/ @ts-expect-error.*$/gm, '');
      return ts.createSourceFile(name, text, languageVersion, true);
    };
  }
  const program = ts.createProgram({ rootNames: [target], options, host });
  const source = program.getSourceFile(target)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ({
    line: d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1,
    code: d.code,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

/** The 1-based lines that a `// @ts-expect-error` comment on the line before covers. */
export function expectErrorLines(file: string): number[] {
  const lines = ts.sys.readFile(path.resolve(file))!.split('\n');
  return lines.flatMap((l, i) => (/^\s*\/\/ @ts-expect-error/.test(l) ? [i + 2] : []));
}

/**
 * The two tests of a tenant-scoping spec (a file of calls, the refused ones marked `// @ts-expect-error`): the file
 * compiles as written, and with the marks stripped it fails on exactly the marked lines, each for the tenant's sake
 * (a TenantId or an OwnedStream wanted), not for some other mistake on the line. Call inside a describe block.
 */
export function itChecksTenantScoping(file: string): void {
  it('compiles where the tenant is vouched for (a TenantId, an OwnedStream)', () => {
    expect(typeDiagnostics(file)).toEqual([]);
  });

  it('refuses a plain string (or an unowned row) for every marked query', () => {
    const errors = typeDiagnostics(file, { stripExpectErrors: true });
    expect(errors.map((e) => e.line)).toEqual(expectErrorLines(file));
    expect(errors.filter((e) => !/TenantId|OwnedStream|owned|vouched/.test(e.message))).toEqual([]);
  });
}
