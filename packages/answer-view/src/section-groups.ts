// How a page's sections are headed in the print view and the PDF alike (issue #32): the blocks
// of an add-another group sit under the group's own heading.
import type { AnswerSectionView } from './view-model';

/** A page's sections as headed: a section alone, or the consecutive blocks of one group. */
export type SectionGroup =
  | { kind: 'section'; section: AnswerSectionView }
  | { kind: 'blocks'; group: string; title: string; sections: AnswerSectionView[] };

/**
 * Gathers each run of consecutive blocks of one add-another group under the group's title, so
 * both renderers head them alike: the group one level below the page, each block one below that.
 */
export function listSectionGroups(sections: readonly AnswerSectionView[]): SectionGroup[] {
  const groups: SectionGroup[] = [];
  for (const section of sections) {
    const last = groups.at(-1);
    if (!section.block) groups.push({ kind: 'section', section });
    else if (last?.kind === 'blocks' && last.group === section.block.group) {
      last.sections.push(section);
    } else {
      groups.push({
        kind: 'blocks',
        group: section.block.group,
        title: section.block.title,
        sections: [section],
      });
    }
  }
  return groups;
}
