// Before qpdf flattens annotations into the page (it draws only stored appearances), the ones a
// viewer draws without a stored appearance get one: text markup (highlight, underline, strike-out,
// squiggly), shapes (square, circle, line, polygon, polyline), ink, free text and the note icon of
// a text annotation, drawn the way poppler draws them. Annotations in a layer the default
// configuration hides are removed, and a form whose text or choice fields lack appearances asks
// qpdf to generate them (NeedAppearances, which viewers honour the same way).
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFStream,
  PDFString,
  PDFHexString,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { isOptionalContentHidden } from './pdf-optional-content';

/** Annotation flags (PDF 32000-1 §12.5.3): Hidden, NoView. */
const HIDDEN_FLAGS = 2 | 32;
const MARKUP = new Set(['Highlight', 'Underline', 'StrikeOut', 'Squiggly']);
const DRAWN = new Set([
  ...MARKUP,
  'Square',
  'Circle',
  'Line',
  'Polygon',
  'PolyLine',
  'Ink',
  'FreeText',
  'Text',
]);
/** Bézier handle length for a quarter ellipse. */
const KAPPA = 0.5523;
const MAX_POINTS = 100_000;

type Point = [number, number];

/** True when the document changed (and must be written again before qpdf flattens it). */
export function prepareAnnotations(doc: PDFDocument): boolean {
  const { context } = doc;
  let changed = false;
  let fieldsWithout = false;
  for (const page of doc.getPages()) {
    const annots = resolve(context, page.node.get(PDFName.of('Annots')));
    if (!(annots instanceof PDFArray)) continue;
    const kept: PDFObject[] = [];
    for (const item of annots.asArray()) {
      const annot = resolve(context, item);
      if (!(annot instanceof PDFDict)) continue;
      if (isOptionalContentHidden(doc, annot.get(PDFName.of('OC')))) {
        changed = true;
        continue;
      }
      kept.push(item);
      if (hasAppearance(context, annot)) continue;
      const subtype = nameOf(annot.get(PDFName.of('Subtype')));
      if (subtype === 'Widget') {
        // Only text and choice fields: qpdf draws no others, and asking regenerates every field.
        fieldsWithout ||= ['Tx', 'Ch'].includes(fieldType(context, annot) ?? '');
        continue;
      }
      const flags = numberOf(context, annot.get(PDFName.of('F'))) ?? 0;
      if (!subtype || !DRAWN.has(subtype) || flags & HIDDEN_FLAGS) continue;
      const appearance = drawAppearance(context, annot, subtype);
      if (!appearance) continue;
      annot.set(PDFName.of('AP'), context.obj({ N: context.register(appearance) }));
      changed = true;
    }
    if (kept.length !== annots.size()) page.node.set(PDFName.of('Annots'), context.obj(kept));
  }
  const form = resolve(context, doc.catalog.get(PDFName.of('AcroForm')));
  if (fieldsWithout && form instanceof PDFDict) {
    form.set(PDFName.of('NeedAppearances'), context.obj(true));
    changed = true;
  }
  return changed;
}

/** A widget's field type, its own or inherited from the field above it. */
function fieldType(context: PDFContext, widget: PDFDict): string | undefined {
  let node: PDFObject | undefined = widget;
  for (let depth = 0; node instanceof PDFDict && depth < 32; depth++) {
    const type = nameOf(node.get(PDFName.of('FT')));
    if (type) return type;
    node = resolve(context, node.get(PDFName.of('Parent')));
  }
  return undefined;
}

function hasAppearance(context: PDFContext, annot: PDFDict): boolean {
  const ap = resolve(context, annot.get(PDFName.of('AP')));
  if (!(ap instanceof PDFDict)) return false;
  const normal = resolve(context, ap.get(PDFName.of('N')));
  return normal instanceof PDFStream || normal instanceof PDFDict;
}

function drawAppearance(context: PDFContext, annot: PDFDict, subtype: string): PDFStream | null {
  const rect = numbers(context, annot.get(PDFName.of('Rect')));
  if (rect.length !== 4) return null;
  const box = [
    Math.min(rect[0]!, rect[2]!),
    Math.min(rect[1]!, rect[3]!),
    Math.max(rect[0]!, rect[2]!),
    Math.max(rect[1]!, rect[3]!),
  ] as const;
  const colour = numbers(context, annot.get(PDFName.of('C')));
  const interior = numbers(context, annot.get(PDFName.of('IC')));
  const width = borderWidth(context, annot);
  const opacity = numberOf(context, annot.get(PDFName.of('CA')));
  const ops: string[] = [];
  const state: Record<string, PDFObject> = {};
  const graphics = (name: string, entries: Record<string, PDFObject>) => {
    state[name] = context.obj(entries);
    ops.push(`/${name} gs`);
  };
  if (opacity !== undefined && opacity < 1) {
    graphics('GSa', { CA: PDFNumber.of(opacity), ca: PDFNumber.of(opacity) });
  }
  const stroke = colourOperator(colour, true);
  const fill = colourOperator(interior, false);
  let font = false;
  if (MARKUP.has(subtype)) {
    if (subtype === 'Highlight') graphics('GSm', { BM: PDFName.of('Multiply') });
    const markColour = colour.length ? colour : subtype === 'Highlight' ? [1, 1, 0] : [0, 0, 0];
    ops.push(colourOperator(markColour, subtype !== 'Highlight') ?? '');
    ops.push(...markupOps(numbers(context, annot.get(PDFName.of('QuadPoints'))), subtype));
  } else if (subtype === 'Square' || subtype === 'Circle') {
    const [x0, y0, x1, y1] = [
      box[0] + width / 2,
      box[1] + width / 2,
      box[2] - width / 2,
      box[3] - width / 2,
    ];
    ops.push(`${width} w`, stroke ?? '', fill ?? '');
    ops.push(
      subtype === 'Square' ? `${x0} ${y0} ${x1 - x0} ${y1 - y0} re` : ellipse(x0, y0, x1, y1),
    );
    ops.push(paint(Boolean(stroke) && width > 0, fill, false));
  } else if (subtype === 'Line' || subtype === 'Polygon' || subtype === 'PolyLine') {
    const key = subtype === 'Line' ? 'L' : 'Vertices';
    const points = pairs(numbers(context, annot.get(PDFName.of(key))));
    if (points.length < 2) return null;
    ops.push(`${width} w 1 J 1 j`, stroke ?? '', fill ?? '', path(points));
    ops.push(
      paint(Boolean(stroke), subtype === 'Polygon' ? fill : undefined, subtype === 'Polygon'),
    );
  } else if (subtype === 'Ink') {
    const list = resolve(context, annot.get(PDFName.of('InkList')));
    if (!(list instanceof PDFArray)) return null;
    ops.push(`${width} w 1 J 1 j`, stroke ?? '0 G');
    let total = 0;
    for (const item of list.asArray()) {
      const points = pairs(numbers(context, item));
      total += points.length;
      if (total > MAX_POINTS) break;
      if (points.length > 0)
        ops.push(path(points.length === 1 ? [points[0]!, points[0]!] : points), 'S');
    }
  } else if (subtype === 'FreeText') {
    font = true;
    ops.push(...freeTextOps(annot, box, width, colourOperator(colour, false)));
  } else if (subtype === 'Text') {
    ops.push(...noteIconOps(box, colour.length ? colour : [1, 1, 0]));
  }
  const resources: Record<string, PDFObject> = {};
  if (Object.keys(state).length > 0) resources.ExtGState = context.obj(state);
  if (font) {
    resources.Font = context.obj({
      Helv: context.obj({
        Type: 'Font',
        Subtype: 'Type1',
        BaseFont: 'Helvetica',
        Encoding: 'WinAnsiEncoding',
      }),
    });
  }
  return context.stream(ops.filter(Boolean).join('\n'), {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: context.obj([...box]),
    Resources: context.obj(resources),
  });
}

/**
 * Quadrilaterals in the order every writer uses (upper left, upper right, lower left, lower
 * right): filled for a highlight, a line along the bottom, through the middle or a zigzag.
 */
function markupOps(quads: number[], subtype: string): string[] {
  const ops: string[] = [];
  for (let i = 0; i + 8 <= quads.length && i < MAX_POINTS; i += 8) {
    const [ulx, uly, urx, ury, llx, lly, lrx, lry] = quads.slice(i, i + 8) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const height = Math.hypot(ulx - llx, uly - lly);
    if (subtype === 'Highlight') {
      ops.push(
        `${path([
          [ulx, uly],
          [urx, ury],
          [lrx, lry],
          [llx, lly],
        ])} h f`,
      );
      continue;
    }
    const lineWidth = Math.max(1, height / 14);
    const along = (t: number): [Point, Point] => [
      [llx + (ulx - llx) * t, lly + (uly - lly) * t],
      [lrx + (urx - lrx) * t, lry + (ury - lry) * t],
    ];
    if (subtype === 'StrikeOut') {
      ops.push(`${lineWidth} w ${path(along(0.5))} S`);
    } else if (subtype === 'Underline') {
      ops.push(`${lineWidth} w ${path(along(lineWidth / 2 / Math.max(height, 1)))} S`);
    } else {
      const [from, to] = along(0.05);
      const steps = Math.max(2, Math.round(Math.hypot(to[0] - from[0], to[1] - from[1]) / 2));
      const zigzag: Point[] = Array.from({ length: steps + 1 }, (_, s) => {
        const t = s / steps;
        const lift = s % 2 === 0 ? 0 : height / 8;
        return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t + lift];
      });
      ops.push(`${lineWidth / 2} w ${path(zigzag)} S`);
    }
  }
  return ops;
}

/**
 * As poppler draws free text: /C fills the box, the default appearance string's colour draws the
 * border and the text, wrapped to the box.
 */
function freeTextOps(
  annot: PDFDict,
  box: readonly [number, number, number, number],
  width: number,
  background: string | undefined,
): string[] {
  const da = textOf(annot.get(PDFName.of('DA'))) ?? '';
  const size = Number(/([\d.]+)\s+Tf/.exec(da)?.[1]) || 12;
  const found = /((?:[\d.]+\s+){1,4})(g|rg|k)\b/.exec(da);
  const textColour = found ? `${found[1]}${found[2]}` : '0 g';
  const strokeColour = found ? `${found[1]}${found[2]!.toUpperCase()}` : '0 G';
  const text = textOf(annot.get(PDFName.of('Contents'))) ?? '';
  const [x0, y0, x1, y1] = box;
  const ops: string[] = [];
  if (background) ops.push(background, `${x0} ${y0} ${x1 - x0} ${y1 - y0} re f`);
  if (width > 0) {
    const inset = width / 2;
    ops.push(
      `${width} w ${strokeColour}`,
      `${x0 + inset} ${y0 + inset} ${x1 - x0 - width} ${y1 - y0 - width} re S`,
    );
  }
  // Helvetica's average advance is about half the size: a cheap wrap to the box's width.
  const perLine = Math.max(1, Math.floor((x1 - x0 - 4) / (size * 0.5)));
  const lines = text.split(/\r\n|\r|\n/).flatMap((line) => wrap(line, perLine));
  const leading = size * 1.15;
  ops.push(
    `${x0} ${y0} ${x1 - x0} ${y1 - y0} re W n`,
    'BT',
    textColour,
    `/Helv ${size} Tf ${leading} TL ${x0 + 2} ${y1 - 2 - size} Td`,
    ...lines.slice(0, 500).map((line) => `${literal(line)} Tj T*`),
    'ET',
  );
  return ops;
}

/**
 * The note icon poppler draws for a text annotation: a 24 pt rounded square in /C hanging from
 * the rectangle's top-left corner, a grey sheet with ruled lines on it.
 */
function noteIconOps(box: readonly [number, number, number, number], colour: number[]): string[] {
  const x = box[0];
  const top = box[3];
  const r = 3;
  const [left, right, bottom] = [x, x + 24, top - 24];
  const rounded = [
    `${left + r} ${bottom} m ${right - r} ${bottom} l ${right} ${bottom} ${right} ${bottom + r} v`,
    `${right} ${top - r} l ${right} ${top} ${right - r} ${top} v ${left + r} ${top} l`,
    `${left} ${top} ${left} ${top - r} v ${left} ${bottom + r} l ${left} ${bottom} ${left + r} ${bottom} v h f`,
  ].join(' ');
  return [
    colourOperator(colour, false) ?? '1 1 0 rg',
    rounded,
    `0.75 g ${x + 3} ${top - 21} 17.5 17.5 re f`,
    `0.55 g ${x + 6} ${top - 10} 12 1.2 re ${x + 6} ${top - 13} 12 1.2 re ${x + 6} ${top - 16} 12 1.2 re f`,
  ];
}

function wrap(line: string, perLine: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > perLine) {
      out.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  out.push(current);
  return out;
}

function literal(text: string): string {
  // WinAnsi covers Latin-1; anything else shows as '?', as a viewer without the glyph would.
  const latin1 = [...text].map((c) => (c.charCodeAt(0) < 256 ? c : '?')).join('');
  return `(${latin1.replace(/[()\\]/g, '\\$&').replace(/[\r\n]/g, ' ')})`;
}

function ellipse(x0: number, y0: number, x1: number, y1: number): string {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const rx = (x1 - x0) / 2;
  const ry = (y1 - y0) / 2;
  const kx = rx * KAPPA;
  const ky = ry * KAPPA;
  return [
    `${cx + rx} ${cy} m`,
    `${cx + rx} ${cy + ky} ${cx + kx} ${cy + ry} ${cx} ${cy + ry} c`,
    `${cx - kx} ${cy + ry} ${cx - rx} ${cy + ky} ${cx - rx} ${cy} c`,
    `${cx - rx} ${cy - ky} ${cx - kx} ${cy - ry} ${cx} ${cy - ry} c`,
    `${cx + kx} ${cy - ry} ${cx + rx} ${cy - ky} ${cx + rx} ${cy} c h`,
  ].join(' ');
}

function paint(stroke: boolean | undefined, fill: string | undefined, close: boolean): string {
  if (stroke && fill) return close ? 'b' : 'B';
  if (fill) return 'f';
  if (stroke) return close ? 's' : 'S';
  return 'n';
}

function path(points: readonly Point[]): string {
  return points.map(([x, y], i) => `${x} ${y} ${i === 0 ? 'm' : 'l'}`).join(' ');
}

function pairs(values: number[]): Point[] {
  const points: Point[] = [];
  for (let i = 0; i + 1 < values.length && points.length < MAX_POINTS; i += 2) {
    points.push([values[i]!, values[i + 1]!]);
  }
  return points;
}

/** A colour array (grey, RGB or CMYK) as the operator that sets it; undefined for none. */
function colourOperator(colour: number[], stroking: boolean): string | undefined {
  const op = { 1: 'g', 3: 'rg', 4: 'k' }[colour.length];
  if (!op) return undefined;
  return `${colour.join(' ')} ${stroking ? op.toUpperCase() : op}`;
}

function borderWidth(context: PDFContext, annot: PDFDict): number {
  const bs = resolve(context, annot.get(PDFName.of('BS')));
  if (bs instanceof PDFDict) {
    const w = numberOf(context, bs.get(PDFName.of('W')));
    if (w !== undefined) return Math.max(0, w);
  }
  const border = numbers(context, annot.get(PDFName.of('Border')));
  return border.length >= 3 ? Math.max(0, border[2]!) : 1;
}

function numbers(context: PDFContext, object: PDFObject | undefined): number[] {
  const array = resolve(context, object);
  if (!(array instanceof PDFArray)) return [];
  return array
    .asArray()
    .slice(0, MAX_POINTS * 2)
    .map((item) => numberOf(context, item))
    .filter((n): n is number => n !== undefined && Number.isFinite(n));
}

function numberOf(context: PDFContext, object: PDFObject | undefined): number | undefined {
  const value = resolve(context, object);
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

function nameOf(object: PDFObject | undefined): string | undefined {
  return object instanceof PDFName ? object.decodeText() : undefined;
}

function textOf(object: PDFObject | undefined): string | undefined {
  return object instanceof PDFString || object instanceof PDFHexString
    ? object.decodeText()
    : undefined;
}

function resolve(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}
