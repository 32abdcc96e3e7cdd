/**
 * Functions longer than a bound (default 80 lines), for the house rule "no function over ~80 lines"
 * (docs/console.md, "How it is built"): every function, method and arrow function with a body,
 * counted from its first line to its last, in the .ts files under the given folders.
 *
 *   node scripts/function-length.ts apps/console/src [max=80]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const [dir = "apps/console/src", bound = "80"] = process.argv.slice(2);
const max = Number(bound);

const files = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });

/** What a reader calls the function: its name, its variable's, or where it is passed. */
function nameOf(n: ts.FunctionLikeDeclaration): string {
  if (n.name) return n.name.getText();
  if (ts.isVariableDeclaration(n.parent)) return n.parent.name.getText();
  if (ts.isCallExpression(n.parent)) return `(passed to ${n.parent.expression.getText().slice(0, 40)})`;
  return "(anonymous)";
}

let found = 0;
for (const file of files(dir)) {
  const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && "body" in n && n.body) {
      const lines = src.getLineAndCharacterOfPosition(n.getEnd()).line - src.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      if (lines > max) {
        found++;
        console.log(`${file}:${src.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${nameOf(n as ts.FunctionLikeDeclaration)}: ${lines} lines`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
if (found) process.exitCode = 1;
else console.log(`no function over ${max} lines under ${dir}`);
