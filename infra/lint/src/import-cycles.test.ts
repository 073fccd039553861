import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * No circle in the import graph of the project's own sources: a module that imports, through
 * others, a module that imports it cannot be read (or tested) on its own, and a circle across
 * layers hides an arrow that runs back up them. Type-only imports count too: they tie the
 * design together as much as values do. Files are read with TypeScript's own pre-processor.
 */

const ROOT = join(__dirname, '../../..');
const SOURCE_ROOTS = ['services', 'libs', 'infra', 'bench'];
const SKIPPED = new Set(['node_modules', 'dist', 'generated', '.local', 'coverage', 'screenshots']);

function sourceFiles(folder: string, found: string[] = []): string[] {
  for (const name of readdirSync(folder)) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The file a relative specifier names (`./x` as x.ts, x.tsx or x/index.ts), or null for a package. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(candidate)) return candidate;
  return null;
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles.map((imported) => resolveRelative(file, imported.fileName)).filter((target): target is string => target !== null),
    );
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan's algorithm): each is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.map((path) => relative(ROOT, path)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  const files = SOURCE_ROOTS.flatMap((root) => sourceFiles(join(ROOT, root)));

  it('reads the whole project', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('has no circle', () => {
    expect(circles(importGraph(files))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const [a, b, c] = ['/x/a.ts', '/x/b.ts', '/x/c.ts'];
    expect(circles(new Map([[a!, [b!]], [b!, [c!]], [c!, [a!]]])).map((circle) => circle.length)).toEqual([3]);
    expect(circles(new Map([[a!, [b!]], [b!, [c!]], [c!, []]]))).toEqual([]);
  });
});
