// The import graph of the packages, the service and the SPA, read with the TypeScript compiler's
// own parser and resolver: every `import`, `import type`, `export … from`, `import()` and
// `import('…').T` is an edge. It has no circle, between files or between units (a package, a
// service layer or module, an SPA layer or feature), and no edge runs from a lower layer up.
// .dependency-cruiser.cjs enforces the same in `npm run lint`; this reads the graph on its own.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['packages/form/src', 'packages/answer-view/src', 'packages/api-contract/src'];
const SERVICE = 'services/api/src';
const SPA = 'apps/web/src';

// Bottom up; a file may import its own layer or a lower one. Packages are below both the service
// and the SPA, which never import each other.
const PACKAGE_LAYERS = ['form', 'answer-view', 'api-contract'];
const SERVICE_LAYERS = ['platform', 'modules', 'boot'];
const SPA_LAYERS = [['config', 'shared'], ['features'], ['app'], ['main.tsx']];

interface Place {
  area: 'packages' | 'service' | 'spa';
  /** Its layer's rank in its area. */
  rank: number;
  /** The unit whose circles count: a package, a service module or layer, a feature or SPA layer. */
  unit: string;
}

function placeOf(file: string): Place | undefined {
  const parts = file.split('/');
  if (parts[0] === 'packages') {
    const rank = PACKAGE_LAYERS.indexOf(parts[1]!);
    return rank < 0 ? undefined : { area: 'packages', rank, unit: `packages/${parts[1]}` };
  }
  if (file.startsWith(`${SERVICE}/`)) {
    const layer = parts[3]!;
    const rank = SERVICE_LAYERS.indexOf(layer);
    if (rank < 0) return undefined;
    return {
      area: 'service',
      rank,
      unit: layer === 'modules' ? parts.slice(0, 5).join('/') : parts.slice(0, 4).join('/'),
    };
  }
  if (file.startsWith(`${SPA}/`)) {
    const layer = parts[3]!;
    const rank = SPA_LAYERS.findIndex((names) => names.includes(layer));
    if (rank < 0) return undefined;
    return {
      area: 'spa',
      rank,
      unit: layer === 'features' ? parts.slice(0, 5).join('/') : parts.slice(0, 4).join('/'),
    };
  }
  return undefined;
}

// lint-boundaries.test.ts writes its rule-breaking probes (zz-lint-*) into the tree while it runs,
// perhaps beside this file's run: they are not part of the code.
const isSource = (name: string): boolean =>
  /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('zz-lint-');

function listSources(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && isSource(entry.name))
    .map((entry) =>
      path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

/** Every module specifier the file names, type positions and lazy imports included. */
function listSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(repoRoot, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  resolveJsonModule: true,
};

/** file → the repository files it imports (outside packages are not part of the graph). */
function readGraph(): Map<string, Set<string>> {
  const files = [...ROOTS, SERVICE, SPA].flatMap(listSources);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of listSpecifiers(file)) {
      const resolved = ts.resolveModuleName(
        specifier,
        path.join(repoRoot, file),
        compilerOptions,
        ts.sys,
      ).resolvedModule;
      if (!resolved) continue;
      // Workspace packages resolve through their node_modules links to their real files.
      const target = path
        .relative(repoRoot, ts.sys.realpath!(resolved.resolvedFileName))
        .split(path.sep)
        .join('/');
      if (!target.startsWith('..') && !target.includes('node_modules/') && placeOf(target)) {
        targets.add(target);
      }
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one node, or with a self edge: the circles. */
function findCircles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return circles;
}

function unitGraph(graph: Map<string, Set<string>>): Map<string, Set<string>> {
  const units = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = placeOf(file)!.unit;
    const edges = units.get(from) ?? new Set<string>();
    units.set(from, edges);
    for (const target of targets) {
      const to = placeOf(target)!.unit;
      if (to !== from) edges.add(to);
    }
  }
  return units;
}

describe('the import graph', () => {
  const graph = readGraph();

  it('is read whole: the type-only and lazy edges are in it', () => {
    expect(graph.size).toBeGreaterThan(300);
    // A type-only import and a lazy import() of the SPA, both edges.
    expect(graph.get(`${SPA}/shared/ui/app-modal.tsx`)).toContain(
      `${SPA}/shared/ui/app-modal-dialog.tsx`,
    );
    expect(graph.get(`${SPA}/features/account/components/idle-timeout.tsx`)).toContain(
      `${SPA}/features/account/components/idle-watcher.tsx`,
    );
    // A workspace package, through its link.
    expect(graph.get('packages/api-contract/src/service.ts')).toContain(
      'packages/answer-view/src/index.ts',
    );
  });

  it('has no circle between files', () => {
    expect(findCircles(graph)).toEqual([]);
  });

  it('has no circle between packages, service modules and layers, or SPA features and layers', () => {
    expect(findCircles(unitGraph(graph))).toEqual([]);
  });

  it('has no import from a lower layer to a higher one, nor between the service and the SPA', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = placeOf(file)!;
      for (const target of targets) {
        const to = placeOf(target)!;
        const allowed = to.area === from.area ? to.rank <= from.rank : to.area === 'packages';
        if (!allowed) upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has each package list only the packages below it', () => {
    const listed: string[] = [];
    for (const [rank, name] of PACKAGE_LAYERS.entries()) {
      const manifest = JSON.parse(
        readFileSync(path.join(repoRoot, 'packages', name, 'package.json'), 'utf8'),
      ) as Record<string, Record<string, string> | undefined>;
      const names = ['dependencies', 'peerDependencies', 'devDependencies'].flatMap((field) =>
        Object.keys(manifest[field] ?? {}),
      );
      for (const dependency of names.filter((n) => n.startsWith('@admissions/'))) {
        const below = PACKAGE_LAYERS.indexOf(dependency.slice('@admissions/'.length));
        if (below < 0 || below >= rank) listed.push(`${name} lists ${dependency}`);
      }
    }
    expect(listed).toEqual([]);
  });
});
