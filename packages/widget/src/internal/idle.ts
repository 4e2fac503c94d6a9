/** Runs `work` when the browser is idle (within 3 s; after 200 ms where it cannot tell, as in Safari). */
export const idle = (work: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 3000 });
  else setTimeout(work, 200);
};
