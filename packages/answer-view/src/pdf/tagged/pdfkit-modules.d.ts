// The parts of pdfkit and fontkit the tagged renderer uses (neither ships TypeScript declarations).
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    unitsPerEm: number;
    ascent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string, ...rest: unknown[]): unknown;
  }
  export function openSync(path: string, postscriptName?: string): Font;
}

declare module 'pdfkit' {
  import type { Font } from 'fontkit';

  export interface PdfKitStructureContent {
    readonly refs: unknown[];
  }

  export interface PdfKitStructureElement {
    add(child: PdfKitStructureElement | PdfKitStructureContent): this;
    end(): void;
  }

  export interface PdfKitOutline {
    addItem(title: string, options?: { left?: number; top?: number }): PdfKitOutline;
  }

  export interface PdfKitTextOptions {
    width?: number;
    continued?: boolean;
    lineGap?: number;
    lineBreak?: boolean;
    align?: 'left' | 'center' | 'right';
  }

  export interface PdfKitPage {
    width: number;
    height: number;
    margins: { top: number; bottom: number; left: number; right: number };
    maxY(): number;
  }

  export interface PdfKitOptions {
    size?: string | [number, number];
    margin?: number;
    autoFirstPage?: boolean;
    bufferPages?: boolean;
    pdfVersion?: '1.4' | '1.5' | '1.6' | '1.7';
    tagged?: boolean;
    lang?: string;
    displayTitle?: boolean;
    subset?: 'PDF/UA';
    compress?: boolean;
    info?: Record<string, string>;
  }

  export default class PDFDocument {
    constructor(options?: PdfKitOptions);
    x: number;
    y: number;
    page: PdfKitPage;
    outline: PdfKitOutline;
    on(event: 'data', listener: (chunk: Uint8Array) => void): this;
    on(event: 'end' | 'error', listener: (error?: Error) => void): this;
    end(): void;
    addPage(options?: PdfKitOptions): this;
    continueOnNewPage(): this;
    registerFont(name: string, src: Font): this;
    font(name: string): this;
    fontSize(size: number): this;
    fillColor(color: string): this;
    strokeColor(color: string): this;
    lineWidth(width: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    stroke(): this;
    text(text: string, options?: PdfKitTextOptions): this;
    text(text: string, x: number, y: number, options?: PdfKitTextOptions): this;
    widthOfString(text: string): number;
    heightOfString(text: string, options?: PdfKitTextOptions): number;
    currentLineHeight(includeGap?: boolean): number;
    bufferedPageRange(): { start: number; count: number };
    switchToPage(index: number): this;
    struct(
      type: string,
      options?: { title?: string; lang?: string; alt?: string; scope?: 'Row' | 'Column' },
    ): PdfKitStructureElement;
    addStructure(element: PdfKitStructureElement): this;
    markStructureContent(type: string): PdfKitStructureContent;
    markContent(tag: 'Artifact', options?: { type?: 'Pagination' | 'Layout' }): this;
    endMarkedContent(): this;
  }
}
