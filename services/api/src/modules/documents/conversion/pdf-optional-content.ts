// Optional content (layers) the file hides by default stays hidden in what we store. The stored
// copy has no /OCProperties (it is rebuilt from the pages alone, pdf-inert.ts), and every viewer
// draws optional content whose configuration it cannot see, so the hidden parts are taken out of
// the page content here: painting inside a marked-content section whose /OC is off (BDC … EMC)
// is removed, state changes in it are kept (viewers apply them too), and XObjects whose own /OC
// is off are not drawn.
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  decodePDFRawStream,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { splitOperations, type ContentOperation } from './pdf-content-tokens';

/** Operators that put marks on the page; inside hidden content they go. */
const PATH_PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);
const DRAWING = new Set(['Tj', 'TJ', 'Do', 'sh', 'BI']);
/** OCMD visibility policies (PDF 32000-1 §8.11.2.2). */
const POLICIES: Record<string, (states: boolean[]) => boolean> = {
  AllOn: (states) => states.every(Boolean),
  AnyOn: (states) => states.some(Boolean),
  AnyOff: (states) => states.some((on) => !on),
  AllOff: (states) => states.every((on) => !on),
};
const MAX_EXPRESSION_DEPTH = 32;
/** Forms inside forms followed; deeper ones are left as written rather than overflow the stack. */
const MAX_FORM_DEPTH = 64;

export function hideOptionalContent(doc: PDFDocument): void {
  const { context } = doc;
  const properties = resolve(context, doc.catalog.get(PDFName.of('OCProperties')));
  if (!(properties instanceof PDFDict)) return;
  const isOff = offGroups(context, properties);
  if (isOff.size === 0) return;
  const hidden = (oc: PDFObject | undefined) => !isVisible(context, oc, isOff, 0);
  const rewritten = new Set<PDFObject>();

  const rewrite = (
    bytes: Uint8Array,
    resources: PDFDict | undefined,
    depth = 0,
  ): Uint8Array | null => {
    const ops = splitOperations(bytes);
    const kept: Buffer[] = [];
    const stack: boolean[] = [];
    let hiddenDepth = 0;
    let changed = false;
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const op of ops) {
      if (op.operator === 'BDC' || op.operator === 'BMC') {
        const off = op.operator === 'BDC' && sectionIsHidden(context, op, resources, hidden);
        stack.push(off);
        if (off) hiddenDepth += 1;
      } else if (op.operator === 'EMC' && stack.length > 0) {
        if (stack.pop()) hiddenDepth -= 1;
      }
      if (op.operator === 'Do' && depth < MAX_FORM_DEPTH) drawForm(op, resources, depth + 1);
      const replacement = hiddenDepth > 0 ? withoutMarks(op) : undefined;
      const xobjectOff =
        op.operator === 'Do' && hidden(xobjectOf(context, op, resources)?.get(PDFName.of('OC')));
      if (replacement !== undefined || xobjectOff) {
        changed = true;
        kept.push(Buffer.from(` ${replacement ?? ''}\n`, 'latin1'));
      } else {
        kept.push(source.subarray(op.start, op.end), Buffer.from('\n'));
      }
    }
    return changed ? Buffer.concat(kept) : null;
  };

  // A form's own content is rewritten once, wherever it is drawn from.
  const drawForm = (op: ContentOperation, resources: PDFDict | undefined, depth: number) => {
    const name = op.operands[0];
    const xobjects = resolve(context, resources?.get(PDFName.of('XObject')));
    if (!name || !(xobjects instanceof PDFDict)) return;
    const ref = xobjects.get(PDFName.of(name.slice(1)));
    const form = resolve(context, ref);
    if (!(ref instanceof PDFRef) || !(form instanceof PDFRawStream) || rewritten.has(form)) return;
    if (form.dict.get(PDFName.of('Subtype')) !== PDFName.of('Form')) return;
    rewritten.add(form);
    const own = resolve(context, form.dict.get(PDFName.of('Resources')));
    const content = rewrite(decoded(form), own instanceof PDFDict ? own : resources, depth);
    if (!content) return;
    const dict = form.dict.clone(context);
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    dict.delete(PDFName.of('Length'));
    context.assign(
      ref,
      context.flateStream(
        content,
        Object.fromEntries(dict.entries().map(([key, value]) => [key.decodeText(), value])),
      ),
    );
  };

  for (const page of doc.getPages()) {
    const contents = resolve(context, page.node.get(PDFName.of('Contents')));
    const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
    const bytes = Buffer.concat(
      streams.map((item) => {
        const stream = resolve(context, item);
        return Buffer.concat([
          stream instanceof PDFRawStream ? decoded(stream) : new Uint8Array(),
          Buffer.from('\n'),
        ]);
      }),
    );
    const resources = resolve(context, page.node.getInheritableAttribute(PDFName.of('Resources')));
    const content = rewrite(bytes, resources instanceof PDFDict ? resources : undefined);
    if (content)
      page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
  }
}

/** Whether an /OC entry (a group or membership dictionary) is off in the default configuration. */
export function isOptionalContentHidden(doc: PDFDocument, oc: PDFObject | undefined): boolean {
  if (!oc) return false;
  const properties = resolve(doc.context, doc.catalog.get(PDFName.of('OCProperties')));
  if (!(properties instanceof PDFDict)) return false;
  return !isVisible(doc.context, oc, offGroups(doc.context, properties), 0);
}

/** The operation as it is without its marks: nothing, or what it does besides painting. */
function withoutMarks(op: ContentOperation): string | undefined {
  if (PATH_PAINTING.has(op.operator)) return 'n';
  if (DRAWING.has(op.operator)) return '';
  if (op.operator === "'") return 'T*';
  if (op.operator === '"') return `${op.operands[0]} Tw ${op.operands[1]} Tc T*`;
  return undefined;
}

function sectionIsHidden(
  context: PDFContext,
  op: ContentOperation,
  resources: PDFDict | undefined,
  hidden: (oc: PDFObject | undefined) => boolean,
): boolean {
  if (op.operands[0] !== '/OC' || !op.operands[1]?.startsWith('/')) return false;
  const all = resolve(context, resources?.get(PDFName.of('Properties')));
  if (!(all instanceof PDFDict)) return false;
  return hidden(all.get(PDFName.of(op.operands[1].slice(1))));
}

function xobjectOf(context: PDFContext, op: ContentOperation, resources: PDFDict | undefined) {
  const xobjects = resolve(context, resources?.get(PDFName.of('XObject')));
  const name = op.operands[0];
  if (!name || !(xobjects instanceof PDFDict)) return undefined;
  const object = resolve(context, xobjects.get(PDFName.of(name.slice(1))));
  return object instanceof PDFStream ? object.dict : undefined;
}

/** The groups the default configuration (/D) turns off. */
function offGroups(context: PDFContext, properties: PDFDict): Set<PDFObject> {
  const config = resolve(context, properties.get(PDFName.of('D')));
  const list = (object: PDFObject | undefined) => {
    const array = resolve(context, object);
    return array instanceof PDFArray ? array.asArray().map((item) => resolve(context, item)) : [];
  };
  const all = list(properties.get(PDFName.of('OCGs')));
  if (!(config instanceof PDFDict)) return new Set();
  const on = new Set(list(config.get(PDFName.of('ON'))));
  const off = new Set(list(config.get(PDFName.of('OFF'))));
  if (config.get(PDFName.of('BaseState')) === PDFName.of('OFF')) {
    return new Set(all.filter((group) => group && !on.has(group)) as PDFObject[]);
  }
  return new Set([...off].filter((group) => group && !on.has(group)) as PDFObject[]);
}

/** A group or membership dictionary's visibility; anything unreadable counts as visible. */
function isVisible(
  context: PDFContext,
  object: PDFObject | undefined,
  off: Set<PDFObject>,
  depth: number,
): boolean {
  const oc = resolve(context, object);
  if (!(oc instanceof PDFDict) || depth > MAX_EXPRESSION_DEPTH) return true;
  if (oc.get(PDFName.of('Type')) !== PDFName.of('OCMD')) return !off.has(oc);
  const expression = resolve(context, oc.get(PDFName.of('VE')));
  if (expression instanceof PDFArray) return evaluate(context, expression, off, depth + 1);
  const groups = resolve(context, oc.get(PDFName.of('OCGs')));
  const members = groups instanceof PDFArray ? groups.asArray() : groups ? [groups] : [];
  if (members.length === 0) return true;
  const states = members.map((group) => !off.has(resolve(context, group)!));
  const policy = resolve(context, oc.get(PDFName.of('P')));
  return (POLICIES[policy instanceof PDFName ? policy.decodeText() : 'AnyOn'] ?? POLICIES.AnyOn!)(
    states,
  );
}

function evaluate(
  context: PDFContext,
  expression: PDFArray,
  off: Set<PDFObject>,
  depth: number,
): boolean {
  if (depth > MAX_EXPRESSION_DEPTH) return true;
  const [operator, ...operands] = expression.asArray().map((item) => resolve(context, item));
  const value = (operand: PDFObject | undefined) =>
    operand instanceof PDFArray ? evaluate(context, operand, off, depth + 1) : !off.has(operand!);
  if (operator === PDFName.of('Not')) return !value(operands[0]);
  if (operator === PDFName.of('And')) return operands.every(value);
  if (operator === PDFName.of('Or')) return operands.some(value);
  return true;
}

function decoded(stream: PDFRawStream): Uint8Array {
  try {
    return decodePDFRawStream(stream).decode();
  } catch {
    return new Uint8Array(); // a filter pdf-lib does not know: no viewer draws it either
  }
}

function resolve(context: PDFContext, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? context.lookup(object) : object;
}
