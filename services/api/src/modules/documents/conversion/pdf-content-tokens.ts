// A PDF content stream split into operations (operands, then the operator), each with the byte
// range it came from, so a pass can drop or replace some and copy the rest unchanged.

export interface ContentOperation {
  operator: string;
  /** Operand texts as written (strings, names, numbers, arrays and dictionaries whole). */
  operands: string[];
  start: number;
  end: number;
}

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITER = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (byte: number | undefined) =>
  byte !== undefined && !WHITE.has(byte) && !DELIMITER.has(byte);
const LITERALS = new Set(['true', 'false', 'null']);

export function splitOperations(content: Uint8Array): ContentOperation[] {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString(
    'latin1',
  );
  const at = (i: number) => content[i];
  const operations: ContentOperation[] = [];
  let operands: string[] = [];
  let start = -1;
  let i = 0;
  const operand = (end: number) => {
    if (start === -1) start = i;
    operands.push(text.slice(i, end));
    i = end;
  };
  while (i < content.length) {
    const byte = at(i)!;
    if (WHITE.has(byte)) {
      i += 1;
    } else if (byte === 0x25) {
      while (i < content.length && at(i) !== 0x0a && at(i) !== 0x0d) i += 1;
    } else if (byte === 0x28) {
      operand(stringEnd(content, i));
    } else if (byte === 0x3c || byte === 0x5b) {
      operand(byte === 0x3c && at(i + 1) !== 0x3c ? hexEnd(content, i) : nestedEnd(content, i));
    } else if (byte === 0x2f) {
      let end = i + 1;
      while (isRegular(at(end))) end += 1;
      operand(end);
    } else if (!isRegular(byte)) {
      i += 1; // a stray closing delimiter: skipped, as viewers do
    } else {
      let end = i;
      while (isRegular(at(end))) end += 1;
      const word = text.slice(i, end);
      if (/^[-+.\d]/.test(word) || LITERALS.has(word)) {
        operand(end);
        continue;
      }
      if (start === -1) start = i;
      if (word === 'BI') end = inlineImageEnd(content, text, end);
      operations.push({ operator: word, operands, start, end });
      operands = [];
      start = -1;
      i = end;
    }
  }
  return operations;
}

function stringEnd(content: Uint8Array, from: number): number {
  let depth = 0;
  for (let i = from; i < content.length; i++) {
    const byte = content[i];
    if (byte === 0x5c) i += 1;
    else if (byte === 0x28) depth += 1;
    else if (byte === 0x29 && --depth === 0) return i + 1;
  }
  return content.length;
}

function hexEnd(content: Uint8Array, from: number): number {
  const end = content.indexOf(0x3e, from);
  return end === -1 ? content.length : end + 1;
}

/** The end of an array or dictionary, strings inside skipped whole. */
function nestedEnd(content: Uint8Array, from: number): number {
  let depth = 0;
  for (let i = from; i < content.length; i++) {
    const byte = content[i];
    if (byte === 0x28) {
      i = stringEnd(content, i) - 1;
    } else if (byte === 0x5b || (byte === 0x3c && content[i + 1] === 0x3c)) {
      depth += 1;
      if (byte === 0x3c) i += 1;
    } else if (byte === 0x5d || (byte === 0x3e && content[i + 1] === 0x3e)) {
      depth -= 1;
      if (byte === 0x3e) i += 1;
      if (depth === 0) return i + 1;
    }
  }
  return content.length;
}

/** BI <entries> ID <data> EI: the data ends at an EI standing alone. */
function inlineImageEnd(content: Uint8Array, text: string, from: number): number {
  const id = /\sID[\s]/g;
  id.lastIndex = from - 1;
  const found = id.exec(text);
  if (!found) return content.length;
  const ei = /\sEI(?=[\s]|$)/g;
  ei.lastIndex = found.index + found[0].length;
  const end = ei.exec(text);
  return end ? end.index + end[0].length : content.length;
}
