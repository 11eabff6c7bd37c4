/** @jsxRuntime automatic @jsxImportSource react */
// The application as a react-pdf tree: a thin layout of the view model, no formatting decisions.
//
// Layout cost in react-pdf grows with the number of nodes (each is a Yoga node, measured, split at
// page breaks and drawn), so a row is one <Text>: the label in bold on its own line, the value
// below it. A long answer's <Text> splits across pages line by line, so it flows on without being
// clipped; the label/value order is the reading order of the page (pdftotext gives it back).
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
  // 17 pt line boxes: a 13 pt line and the 4 pt gap under each row.
  rows: { fontSize: 10, lineHeight: 1.7 },
  // A nested run's unitless lineHeight is resolved against react-pdf's default 18 pt rather than
  // the inherited size, so the size is restated: the normal 13 pt line box.
  line: { fontSize: 10, lineHeight: 1.3 },
  coverInstitution: { fontSize: 14, fontWeight: 700, marginTop: 120, marginBottom: 8 },
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
      {/* Whose application form this is: the institution's name heads the cover. */}
      {cover.institution ? <Text style={styles.coverInstitution}>{cover.institution}</Text> : null}
      <Text style={cover.institution ? [styles.coverTitle, { marginTop: 0 }] : styles.coverTitle}>
        {COVER_HEADING}
      </Text>
      <Text style={styles.coverName}>{cover.applicantName || COVER_HEADING}</Text>
      {listCoverLines(cover).map((line) => (
        <CoverLine key={line.label} label={line.label} value={line.value} />
      ))}
    </Page>
  );
}

// A row is one <Text> of nested runs: the label in bold, the tab note, the value. Every nested
// <Text> is a node react-pdf resolves and every "\n" a paragraph it runs its text pipeline on, so
// a row has as few of both as it can: the row's line boxes are the tall ones that leave the gap
// under it (textkit puts the extra height below the text), the value is a plain string in it, and
// only lines that are not the row's last (a label above its value, a long answer's lines) are
// nested runs with the normal line box.
type RunStyle = (typeof styles)[keyof typeof styles];

function rowRuns(row: AnswerRow, showTab: boolean): ReactNode[] {
  const tab = showTab && row.tab ? `${row.tab.group}: ${row.tab.tab}` : '';
  const hasValue = row.kind !== 'check' && row.value !== '';
  const run = (key: string, text: string, style: RunStyle | RunStyle[]) => (
    <Text key={key} style={style}>
      {`${text}\n`}
    </Text>
  );
  const runs: ReactNode[] = [];
  // "[X] I agree …": the box first, as on the form.
  if (row.kind === 'check') runs.push(`${row.value} `);
  runs.push(run(row.key, row.label, tab || hasValue ? [styles.label, styles.line] : styles.label));
  // The tab a question belongs to, under its label as in the print view.
  if (tab)
    runs.push(run(`${row.key}-tab`, tab, hasValue ? [styles.note, styles.line] : styles.note));
  if (!hasValue) return runs;
  if (row.kind === 'long') {
    runs.push(
      run(`${row.key}-value`, row.value, styles.line),
      run(`${row.key}-gap`, '', styles.spacer),
    );
  } else {
    runs.push(`${row.value}\n`);
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
      {section.rows.map((row) => (
        // A short row never splits (its label stays with its value); a long answer flows on.
        <Text key={row.key} style={styles.rows} wrap={row.kind === 'long'}>
          {rowRuns(row, !section.tab)}
        </Text>
      ))}
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
