import { css } from 'lit';

// Pay: the product line.
export const payStyles = css`
  .product > div { flex: 1; }
`;
