import { css } from 'lit';

// Pay: the product line (the order's status is pay-order.ts's).
export const payStyles = css`
  .product { display: flex; align-items: flex-start; gap: 8px; }
  .product > div { flex: 1; }
  .name, .price { font-weight: 700; }
  .product img { border-radius: var(--_r); object-fit: cover; }
`;
