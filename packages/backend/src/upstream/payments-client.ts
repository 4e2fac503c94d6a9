// Placeholder until written.
export interface PaymentsClient {
  readonly kind: 'payments';
}
