// Placeholder until written.
export interface RampClient {
  readonly kind: 'ramp';
}
