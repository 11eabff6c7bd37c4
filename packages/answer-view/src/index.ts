// buildAnswerView and its web and PDF renderers arrive with the print-view issue (#7).
export {};
