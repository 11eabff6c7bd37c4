/** @jsxRuntime automatic @jsxImportSource react */
// The print view: lays out an AnswerView as HTML (Mantine headings, definition lists). It decides
// nothing about content; buildAnswerView has. Each row carries data-answer-label and
// data-answer-value, in the order of collectAnswerPairs, for the parity test.
import { useId, type ElementType } from 'react';
import { Title } from '@mantine/core';
import { COVER_HEADING, listCoverLines } from '../cover';
import { formatDocumentSize } from '../document-size';
import { listSectionGroups } from '../section-groups';
import type {
  AnswerPageView,
  AnswerRow,
  AnswerSectionView,
  AnswerView,
  ApplicationCover,
  DocumentView,
} from '../view-model';
import { PRINT_VIEW_CSS } from './print-view-css';

export interface PrintViewProps {
  view: AnswerView;
  cover: ApplicationCover;
  /** The root element; `main` unless the page already has one. */
  component?: 'main' | 'article' | 'div';
  /** Render the stylesheet in a <style> element (default); turn off when the page loads it. */
  withStyles?: boolean;
}

export const DOCUMENTS_TITLE = 'Documents';

function Row({ row }: { row: AnswerRow }) {
  // The tab is said once on the section when it holds one tab group, else on the row.
  return (
    <div
      className={`av-row av-row-${row.kind}`}
      data-answer-key={row.key}
      data-answer-kind={row.kind}
      data-answer-label={row.label}
      data-answer-value={row.value}
    >
      <dt>
        {row.label}
        {row.tab && <span className="av-row-tab">{`${row.tab.group}: ${row.tab.tab}`}</span>}
      </dt>
      <dd>{row.value}</dd>
    </div>
  );
}

function SectionBlock({
  section,
  headingId,
  order = 3,
}: {
  section: AnswerSectionView;
  headingId: string;
  /** 4 for a block under its group's heading. */
  order?: 3 | 4;
}) {
  // Rows repeat the tab only when the section does not say it.
  const rows = section.tab ? section.rows.map(({ tab: _tab, ...row }) => row) : section.rows;
  return (
    <section
      className="av-section"
      aria-labelledby={headingId}
      data-section-id={section.id}
      {...(section.block
        ? { 'data-block-group': section.block.group, 'data-block-index': section.block.index }
        : {})}
    >
      <Title order={order} id={headingId} className="av-section-title">
        {section.title}
      </Title>
      {section.tab && <p className="av-section-tab">{section.tab}</p>}
      <dl className="av-rows">
        {rows.map((row) => (
          <Row key={row.key} row={row} />
        ))}
      </dl>
    </section>
  );
}

function PageBlock({ page, idBase }: { page: AnswerPageView; idBase: string }) {
  const headingId = `${idBase}-page-${page.id}`;
  return (
    <section className="av-page" aria-labelledby={headingId} data-page-id={page.id}>
      <Title order={2} id={headingId} className="av-page-title">
        {page.title}
      </Title>
      {listSectionGroups(page.sections).map((group) =>
        group.kind === 'section' ? (
          <SectionBlock
            key={group.section.id}
            section={group.section}
            headingId={`${idBase}-section-${group.section.id}`}
          />
        ) : (
          <section
            key={`${group.group}-${group.sections[0]!.id}`}
            className="av-block-group"
            aria-labelledby={`${idBase}-group-${group.sections[0]!.id}`}
          >
            <Title
              order={3}
              id={`${idBase}-group-${group.sections[0]!.id}`}
              className="av-section-title"
            >
              {group.title}
            </Title>
            {group.sections.map((section) => (
              <SectionBlock
                key={section.id}
                section={section}
                headingId={`${idBase}-section-${section.id}`}
                order={4}
              />
            ))}
          </section>
        ),
      )}
    </section>
  );
}

function DocumentList({
  documents,
  headingId,
}: {
  documents: readonly DocumentView[];
  headingId: string;
}) {
  return (
    <section className="av-documents" aria-labelledby={headingId}>
      <Title order={2} id={headingId} className="av-page-title">
        {DOCUMENTS_TITLE}
      </Title>
      <ul>
        {documents.map((doc) => (
          <li key={doc.key} data-document-key={doc.key}>
            <strong>{doc.label}</strong>
            {` ${doc.fileName} (${formatDocumentSize(doc.fileSize)})`}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The application as read-only text in a print layout: cover heading, pages, sections, rows. */
export function PrintView({ view, cover, component = 'main', withStyles = true }: PrintViewProps) {
  const idBase = `av${useId().replace(/[^\w-]/g, '')}`;
  const Root: ElementType = component;
  const nameId = `${idBase}-applicant`;
  return (
    <Root className="av-print" aria-labelledby={nameId}>
      {withStyles && <style>{PRINT_VIEW_CSS}</style>}
      <header className="av-cover">
        <p className="av-cover-heading">{COVER_HEADING}</p>
        <Title order={1} id={nameId} className="av-applicant">
          {cover.applicantName || COVER_HEADING}
        </Title>
        <dl className="av-cover-lines">
          {listCoverLines(cover).map((line) => (
            <div key={line.label}>
              <dt>{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      </header>
      {view.pages.map((page) => (
        <PageBlock key={page.id} page={page} idBase={idBase} />
      ))}
      {view.documents.length > 0 && (
        <DocumentList documents={view.documents} headingId={`${idBase}-documents`} />
      )}
    </Root>
  );
}
