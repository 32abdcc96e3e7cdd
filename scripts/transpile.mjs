// A package's build: its TypeScript sources turned into JavaScript one file at a time (types erased,
// nothing checked), as the package's tsconfig lays them out (rootDir → outDir, with source maps).
// The types are checked once for the whole tree by `make check` (and beside the tests in `make
// test`): one TypeScript program over every package's sources, which reads no build output. A
// type-checking build per package took ~30 s of a fresh clone's `make test`; this takes a few.
//
// Usage, from a package's folder: node ../../scripts/transpile.mjs [tsconfig.json ...]
import { mkdirSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const configs = process.argv.slice(2);
for (const file of configs.length > 0 ? configs : ["tsconfig.json"]) build(resolve(file));

/** Every source file the tsconfig includes, emitted under its outDir; the outDir emptied first. */
function build(configPath) {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) fail(read.error);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  if (parsed.errors.length > 0) fail(parsed.errors[0]);
  const { outDir, rootDir } = parsed.options;
  if (!outDir || !rootDir) throw new Error(`${configPath}: outDir and rootDir are required`);
  // The module kind the files are written in: ESM throughout (every package is "type": "module"), so
  // NodeNext's per-file choice is ES modules here; transpileModule cannot make that choice itself.
  const { moduleResolution: _, ...rest } = parsed.options;
  const options = {
    ...rest,
    module: ts.ModuleKind.ESNext,
    declaration: false,
    declarationMap: false,
    noEmit: false,
    isolatedModules: true,
  };
  rmSync(outDir, { recursive: true, force: true });
  for (const source of parsed.fileNames) {
    if (source.endsWith(".d.ts")) continue;
    const rel = relative(rootDir, source).replace(/\.(m|c)?tsx?$/, (ext) => ext.replace("t", "j").replace("x", ""));
    const out = join(outDir, rel);
    const { outputText, sourceMapText, diagnostics } = ts.transpileModule(readFileSync(source, "utf8"), {
      compilerOptions: { ...options, sourceMap: Boolean(options.sourceMap), inlineSourceMap: false },
      fileName: source,
      reportDiagnostics: true,
    });
    if (diagnostics?.length) fail(diagnostics[0]);
    mkdirSync(dirname(out), { recursive: true });
    if (sourceMapText) {
      const map = JSON.parse(sourceMapText);
      map.file = rel.split("/").at(-1);
      map.sources = [relative(dirname(out), source)];
      writeFileSync(`${out}.map`, JSON.stringify(map));
    }
    writeFileSync(out, outputText);
  }
}

function fail(diagnostic) {
  const where = diagnostic.file ? `${diagnostic.file.fileName}: ` : "";
  console.error(`${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
  process.exit(2);
}
