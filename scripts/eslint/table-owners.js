// ESLint rule `owners/no-foreign-table-write`: a service module's tables are written only by that
// module. Another module (or boot/) may import a table to read it or join it, never to write it:
// `.insert(t)`, `.update(t)`, `.delete(t)` and raw `INSERT INTO ${t}`, `UPDATE ${t}`,
// `DELETE FROM ${t}`, `TRUNCATE ${t}` are refused for a table imported from another module.
// The owner offers a function that writes instead.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULES_DIR = fileURLToPath(new URL('../../services/api/src/modules', import.meta.url));

/** Each module's tables, by the names its schema.ts exports them under. */
function readTableNames() {
  const tables = new Map();
  for (const entry of readdirSync(MODULES_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let schema = '';
    try {
      schema = readFileSync(path.join(MODULES_DIR, entry.name, 'schema.ts'), 'utf8');
    } catch {
      continue;
    }
    const names = [...schema.matchAll(/export const (\w+)\s*=\s*pgTable\b/g)].map((m) => m[1]);
    tables.set(entry.name, new Set(names));
  }
  return tables;
}

/** The module a file belongs to, or null outside modules/ (boot/ and platform/ own no table). */
function moduleOf(file) {
  const relative = path.relative(MODULES_DIR, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep)[0];
}

const WRITE_METHODS = new Set(['insert', 'update', 'delete']);
const RAW_WRITE = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(\s+TABLE)?)\s*$/i;

const noForeignTableWrite = {
  meta: {
    type: 'problem',
    docs: { description: "Refuses writing another service module's table." },
    schema: [],
    messages: {
      foreign:
        '`{{name}}` is a table of modules/{{owner}}: only that module writes it. Call a function it exports instead (reading or joining the table is fine).',
    },
  },
  create(context) {
    const file = context.filename;
    const own = moduleOf(file);
    const tables = readTableNames();
    /** Local name → owning module, for tables imported from another module. */
    const foreignTables = new Map();
    /** Namespace import local name → owning module. */
    const foreignNamespaces = new Map();

    function tableOwner(node) {
      if (node?.type === 'Identifier') return foreignTables.get(node.name);
      if (
        node?.type === 'MemberExpression' &&
        !node.computed &&
        node.object.type === 'Identifier' &&
        node.property.type === 'Identifier'
      ) {
        const owner = foreignNamespaces.get(node.object.name);
        if (owner && tables.get(owner)?.has(node.property.name)) return owner;
      }
      return undefined;
    }

    function check(node) {
      const owner = tableOwner(node);
      if (owner) {
        const name = context.sourceCode.getText(node);
        context.report({ node, messageId: 'foreign', data: { name, owner } });
      }
    }

    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type' || typeof node.source.value !== 'string') return;
        const source = node.source.value;
        if (!source.startsWith('.')) return;
        const owner = moduleOf(path.resolve(path.dirname(file), source));
        if (!owner || owner === own) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportNamespaceSpecifier') {
            foreignNamespaces.set(specifier.local.name, owner);
          } else if (specifier.type === 'ImportSpecifier' && specifier.importKind !== 'type') {
            const imported =
              specifier.imported.type === 'Identifier'
                ? specifier.imported.name
                : specifier.imported.value;
            if (tables.get(owner)?.has(imported)) foreignTables.set(specifier.local.name, owner);
          }
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          callee.property.type === 'Identifier' &&
          WRITE_METHODS.has(callee.property.name)
        ) {
          check(node.arguments[0]);
        }
      },
      TemplateLiteral(node) {
        node.expressions.forEach((expression, i) => {
          if (RAW_WRITE.test(node.quasis[i].value.cooked ?? node.quasis[i].value.raw)) {
            check(expression);
          }
        });
      },
    };
  },
};

export default { rules: { 'no-foreign-table-write': noForeignTableWrite } };
