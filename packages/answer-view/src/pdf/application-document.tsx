/** @jsxRuntime automatic @jsxImportSource react */
// The application as a react-pdf tree: a thin layout of the view model, no formatting decisions.
//
// Layout cost in react-pdf grows with the number of nodes (each is a Yoga node, measured, split at
// page breaks and drawn), so a section is one <Text> whose rows are nested runs: the label in bold
// on its own line, the value below it, a short spacer line between rows. Text splits across pages
// line by line, so long answers flow on without being clipped, and the label/value order is the
// reading order of the page (pdftotext gives them back in order).
import { Document, Page, Text, View } from '@react-pdf/renderer';
import type { ComponentProps, ComponentType, ReactElement, ReactNode } from 'react';
import { COVER_HEADING, listCoverLines } from '../cover';
import type { AnswerRow, AnswerSectionView, AnswerView, ApplicationCover } from '../view-model';
import { FONT_STACK } from './fonts';

/** The bottom margin leaves room for the "Page X of Y" line stamped afterwards (assemble.ts). */
const PAGE_MARGIN = 54;
// react-pdf writes a node's right edge as a bookmark's /XYZ left unless one is given (0 counts as
// none), which scrolls a zoomed-in viewer sideways; 1 pt from the page's left edge is the intent.
const BOOKMARK_LEFT = 1;

// react-pdf draws a bookmark for any node (a nested node's entry nests under its ancestor's), but
// its type declarations only list the prop on <Page>.
type Bookmark = { title: string; left?: number };
const BookmarkedText = Text as unknown as ComponentType<
  ComponentProps<typeof Text> & { bookmark?: Bookmark }
>;

const styles = {
  page: {
    paddingTop: PAGE_MARGIN,
    paddingBottom: PAGE_MARGIN,
    paddingHorizontal: PAGE_MARGIN,
    fontFamily: FONT_STACK,
    fontSize: 10,
    lineHeight: 1.3,
    color: '#1a1a1a',
  },
  pageTitle: { fontSize: 18, fontWeight: 700, marginBottom: 10 },
  section: { marginTop: 10 },
  sectionTitle: {
    fontSize: 13,
    fontWeight: 700,
    paddingBottom: 3,
    marginBottom: 6,
    borderBottomWidth: 0.75,
    borderBottomColor: '#8a8a8a',
  },
  label: { fontWeight: 700 },
  note: { color: '#555555' },
  spacer: { fontSize: 4, lineHeight: 1 },
  // A nested run's unitless lineHeight is resolved against react-pdf's default 18 pt, not the
  // inherited size, so the size is restated: a 17 pt line box is the 13 pt line plus a 4 pt gap.
  rowEnd: { fontSize: 10, lineHeight: 1.7 },
  coverTitle: { fontSize: 22, fontWeight: 700, marginTop: 120, marginBottom: 24 },
  coverName: { fontSize: 16, fontWeight: 700, marginBottom: 18 },
  coverLine: { fontSize: 11, marginBottom: 6 },
  coverLabel: { fontWeight: 700 },
} as const;

function CoverLine({ label, value }: { label: string; value: string }) {
  return (
    <Text style={styles.coverLine}>
      <Text style={styles.coverLabel}>{label}: </Text>
      {value}
    </Text>
  );
}

function CoverPage({ cover }: { cover: ApplicationCover }) {
  return (
    <Page size="LETTER" style={styles.page}>
      <Text style={styles.coverTitle}>{COVER_HEADING}</Text>
      <Text style={styles.coverName}>{cover.applicantName || COVER_HEADING}</Text>
      {listCoverLines(cover).map((line) => (
        <CoverLine key={line.label} label={line.label} value={line.value} />
      ))}
    </Page>
  );
}

// Each paragraph (every "\n") is a full trip through react-pdf's text pipeline, so the space
// between rows is not a paragraph of its own: the row's last line gets a taller line box (textkit
// puts the extra height below the text). A long answer keeps even leading and is followed by a
// small spacer line instead.
type RunStyle = (typeof styles)[keyof typeof styles];

function rowRuns(row: AnswerRow, showTab: boolean, last: boolean): ReactNode[] {
  const end = last ? undefined : styles.rowEnd;
  const tab = showTab && row.tab ? `${row.tab.group}: ${row.tab.tab}` : '';
  const hasValue = row.kind !== 'check' && row.value !== '';
  // Each run carries its own line break: one text node per run, not one per run and break.
  const run = (key: string, text: string, style: RunStyle | RunStyle[] | undefined) => (
    <Text key={key} style={style}>
      {`${text}\n`}
    </Text>
  );
  const labelStyle = (isLast: boolean) => (isLast && end ? [styles.label, end] : styles.label);
  const runs: ReactNode[] = [];
  // "[X] I agree …": the box first, as on the form.
  if (row.kind === 'check') {
    runs.push(`${row.value} `, run(row.key, row.label, labelStyle(!tab)));
  } else {
    runs.push(run(row.key, row.label, labelStyle(!tab && !hasValue)));
  }
  // The tab a question belongs to, under its label as in the print view.
  if (tab)
    runs.push(run(`${row.key}-tab`, tab, hasValue || !end ? styles.note : [styles.note, end]));
  if (!hasValue) return runs;
  if (row.kind === 'long' || !end) {
    runs.push(run(`${row.key}-value`, row.value, undefined));
    if (end) runs.push(run(`${row.key}-gap`, '', styles.spacer));
  } else {
    runs.push(run(`${row.key}-value`, row.value, end));
  }
  return runs;
}

function Section({ section }: { section: AnswerSectionView }) {
  return (
    <View style={styles.section}>
      {/* minPresenceAhead keeps a title from ending a page without its first rows; the bookmark
          sits on the title so it opens the page the title is printed on. */}
      <BookmarkedText
        style={styles.sectionTitle}
        minPresenceAhead={40}
        bookmark={{ title: section.title, left: BOOKMARK_LEFT }}
      >
        {section.title}
      </BookmarkedText>
      {/* As in the print view: a section of one tab group says its tab once, under its title. */}
      {section.tab ? <Text style={styles.note}>{section.tab}</Text> : null}
      {section.rows.length > 0 ? (
        <Text>
          {section.rows.flatMap((row, i) =>
            rowRuns(row, !section.tab, i === section.rows.length - 1),
          )}
        </Text>
      ) : null}
    </View>
  );
}

export function ApplicationDocument({
  view,
  cover,
}: {
  view: AnswerView;
  cover: ApplicationCover;
}): ReactElement {
  return (
    <Document title={`${COVER_HEADING}: ${cover.applicantName}`} creator="" producer="">
      <CoverPage cover={cover} />
      {view.pages.map((page) => (
        <Page
          key={page.id}
          size="LETTER"
          style={styles.page}
          wrap
          // react-pdf's newer pagination measures the content once and packs it into pages; the
          // default one lays out everything left after each page break again (quadratic).
          experimentalPagination
          bookmark={{ title: page.title, left: BOOKMARK_LEFT }}
        >
          <Text style={styles.pageTitle}>{page.title}</Text>
          {page.sections.map((section) => (
            <Section key={section.id} section={section} />
          ))}
        </Page>
      ))}
    </Document>
  );
}
