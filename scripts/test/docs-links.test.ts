// The repository documents itself: every relative link in its Markdown resolves inside the
// repository (file and, for Markdown targets, heading), and nothing points outside it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
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
