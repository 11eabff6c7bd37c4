// The repository documents itself: every relative link in its Markdown resolves inside the
// repository (file and, for Markdown targets, heading), and nothing points outside it. Docs are
// organised by place, so each rule is stated in one document that the others link to: a rule's key
// sentence found in a second document is a copy that will drift. The two entry documents stay short.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function listTracked(pattern: string): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', pattern],
    {
      cwd: root,
    },
  ).toString();
  return out.split('\n').filter((file) => file && existsSync(path.join(root, file)));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_[\]()]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = slugOf(match[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

function linksOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

const markdown = listTracked('*.md').filter((file) => !file.includes('node_modules/'));

describe('documentation links', () => {
  it('finds the documents it checks', () => {
    expect(markdown).toContain('README.md');
    expect(markdown).toContain('docs/README.md');
  });

  it.each(markdown)('%s: every relative link resolves inside the repository', (file) => {
    const broken: string[] = [];
    for (const link of linksOf(file)) {
      if (/^[a-z]+:/i.test(link)) continue; // https:, mailto: — not ours to check offline
      const [target = '', anchor] = link.split('#');
      const resolved = target
        ? path.resolve(root, path.dirname(file), target)
        : path.join(root, file);
      if (!resolved.startsWith(root + path.sep) || !existsSync(resolved)) {
        broken.push(link);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
        if (!anchorsOf(resolved).has(anchor)) broken.push(link);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no tracked file points at documents outside the repository', () => {
    // git grep exits 1 when nothing matches, which is what we want.
    const result = spawnSync(
      'git',
      [
        'grep',
        '-l',
        '-E',
        '-e',
        'shared/(SPEC|GUIDE)',
        '-e',
        '/work/shared',
        '--',
        '.',
        ':!scripts/test/docs-links.test.ts',
      ],
      { cwd: root },
    );
    const offenders = result.stdout.toString().split('\n').filter(Boolean);
    expect(offenders).toEqual([]);
  }, 20_000);
});

/**
 * Each rule's key sentence, and the one document that states it. The others link there. History
 * (CHANGELOG.md, BENCHMARKS.md and its notes) may retell a rule as it was, so it is not searched.
 */
const RULES: { rule: string; sentence: RegExp; home: string }[] = [
  { rule: 'lockout', sentence: /2\^\(n\s?[−-]\s?5\)/, home: 'SECURITY.md' },
  {
    rule: 'session lifetime',
    sentence: /15 (?:minutes|min)\b[^.]{0,60}\b12 (?:hours|h)\b/,
    home: 'SECURITY.md',
  },
  { rule: 'confirmation code tries', sentence: /60 an hour/, home: 'SECURITY.md' },
  {
    rule: 'reset link lifetime',
    sentence: /[Rr]eset links?[^.]{0,40}60 minutes/,
    home: 'SECURITY.md',
  },
  { rule: 'e-mails per address', sentence: /MAIL_PER_ADDRESS_BURST`? \(6\)/, home: 'SECURITY.md' },
  { rule: 'password rules', sentence: /at least 12 characters/, home: 'docs/validation.md' },
  {
    rule: 'upload bounds',
    sentence: /3 uploads in progress|5 MB in flight/,
    home: 'SECURITY.md',
  },
  { rule: 'rate limit per account', sentence: /\(?600\)? a minute/, home: 'SECURITY.md' },
  { rule: 'cross-site requests', sentence: /`Sec-Fetch-Site` other than/, home: 'SECURITY.md' },
  { rule: 'service token lifetime', sentence: /(?:at most|≤) 24 hours/, home: 'SECURITY.md' },
  {
    rule: 'staff export retention',
    sentence: /7 days after the export finished/,
    home: 'docs/data-model.md',
  },
  {
    rule: 'the version rule',
    sentence: /only while the application is not submitted/,
    home: 'services/api/src/modules/application/README.md',
  },
  { rule: 'one owner per table', sentence: /is their only writer/, home: 'ARCHITECTURE.md' },
];

const HISTORY = new Set(['CHANGELOG.md', 'BENCHMARKS.md', 'bench/history.md']);

/** A document's prose with line breaks and indentation folded, so a sentence may wrap. */
function proseOf(file: string): string {
  return readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
}

describe('each rule stated once', () => {
  const documents = markdown.filter((file) => !HISTORY.has(file));

  it.each(RULES)('$rule is stated in $home only', ({ sentence, home }) => {
    const stating = documents.filter((file) => sentence.test(proseOf(file)));
    expect(stating).toEqual([home]);
  });
});

describe('documents by place', () => {
  it('the entry documents stay short', () => {
    const lines = (file: string) => readFileSync(path.join(root, file), 'utf8').split('\n').length;
    expect(lines('services/api/README.md')).toBeLessThan(300);
    expect(lines('ARCHITECTURE.md')).toBeLessThan(200);
  });

  it('every module of the service has a README beside it', () => {
    const modules = path.join(root, 'services/api/src/modules');
    const missing = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `services/api/src/modules/${entry.name}/README.md`)
      .filter((file) => !existsSync(path.join(root, file)));
    expect(missing).toEqual([]);
  });
});
