/** The one message table: every UI string and every error code's human message, in five languages. */
import { type ErrorCode, RETRYABLE } from '../api/client.ts';

/** English, which also names every message. */
const en = {
  loading: 'Loading…',
  retry: 'Try again',
  country: 'Country',
  fiat: 'Currency',
  crypto: 'Crypto',
  paymentMethod: 'Payment method',
  payoutMethod: 'Payout method',
  pay: 'You pay',
  get: 'You get',
  sell: 'You sell',
  rate: 'Rate',
  processing: 'Processing fee',
  network: 'Network fee',
  markup: 'Markup',
  total: 'Total',
  updated: 'Updated {0}',
  continue: 'Continue',
  wallet: 'Your wallet address',
  walletMissing: 'Required.',
  min: 'Minimum: {0}',
  max: 'Maximum: {0}',
  invalid: 'Enter a valid amount.',
  empty: 'No method for this country and currency.',
  name: 'Name (optional)',
  email: 'E-mail (optional)',
  payCrypto: 'Pay with crypto',
  pending: 'Waiting for your payment…',
  underpaid: 'Partly paid: send the rest to complete.',
  paid: 'Paid. Thank you!',
  overpaid: 'Paid, more than was due. Thank you!',
  expired: 'This payment expired.',
  failed: 'The payment failed.',
  done: 'Done. Thank you!',
  newTab: 'Not showing? Open it in a new tab',
  close: 'Close',
  checkout: 'Checkout',
  chain: 'Network',
  address: 'Deposit address',
  memo: 'Memo (required)',
  copy: 'Copy',
  copied: 'Copied',
  qr: 'QR code of the address',
  accepts: 'Accepts {0}',
  noChain: 'No network takes deposits here.',
  eGone: 'This checkout is not available.',
  eMethod: 'This method is not available here.',
  eRetry: 'Something went wrong. Try again in a moment.',
  eInput: 'Please check your details.',
};

export type MessageKey = keyof typeof en;

/** Every message's key, in the order of the tables below. */
export const KEYS = Object.keys(en) as MessageKey[];

// The other languages: one message a line, in the order of `en` (a test holds each to one line per key).
const translations = {
  es: `Cargando…
Reintentar
País
Moneda
Cripto
Método de pago
Método de cobro
Pagas
Recibes
Vendes
Cambio
Comisión de procesamiento
Comisión de red
Margen
Total
Actualizado {0}
Continuar
Tu dirección de billetera
Obligatorio.
Mínimo: {0}
Máximo: {0}
Introduce un importe válido.
No hay métodos para este país y moneda.
Nombre (opcional)
Correo (opcional)
Pagar con cripto
Esperando tu pago…
Pago parcial: envía el resto para completarlo.
Pagado. ¡Gracias!
Pagado, más de lo debido. ¡Gracias!
Este pago ha caducado.
El pago ha fallado.
Listo. ¡Gracias!
¿No se ve? Ábrelo en una pestaña nueva
Cerrar
Pago
Red
Dirección de depósito
Memo (obligatorio)
Copiar
Copiado
Código QR de la dirección
Acepta {0}
Ninguna red admite depósitos aquí.
Este pago no está disponible.
Este método no está disponible aquí.
Algo ha fallado. Inténtalo de nuevo en un momento.
Revisa tus datos.`,
  fr: `Chargement…
Réessayer
Pays
Devise
Crypto
Moyen de paiement
Mode de versement
Vous payez
Vous recevez
Vous vendez
Taux
Frais de traitement
Frais de réseau
Marge
Total
Mis à jour {0}
Continuer
Votre adresse de portefeuille
Obligatoire.
Minimum : {0}
Maximum : {0}
Saisissez un montant valide.
Aucun moyen pour ce pays et cette devise.
Nom (facultatif)
E-mail (facultatif)
Payer en crypto
En attente de votre paiement…
Paiement partiel : envoyez le reste pour finaliser.
Payé. Merci !
Payé, plus que dû. Merci !
Ce paiement a expiré.
Le paiement a échoué.
Terminé. Merci !
Rien ne s’affiche ? Ouvrez un nouvel onglet
Fermer
Paiement
Réseau
Adresse de dépôt
Mémo (obligatoire)
Copier
Copié
QR code de l’adresse
Accepte {0}
Aucun réseau n’accepte de dépôt ici.
Ce paiement n’est pas disponible.
Ce moyen n’est pas disponible ici.
Une erreur est survenue. Réessayez dans un instant.
Vérifiez vos informations.`,
  de: `Wird geladen…
Erneut versuchen
Land
Währung
Krypto
Zahlungsart
Auszahlungsart
Sie zahlen
Sie erhalten
Sie verkaufen
Kurs
Bearbeitungsgebühr
Netzwerkgebühr
Aufschlag
Gesamt
Aktualisiert {0}
Weiter
Ihre Wallet-Adresse
Erforderlich.
Minimum: {0}
Maximum: {0}
Bitte einen gültigen Betrag eingeben.
Keine Methode für dieses Land und diese Währung.
Name (optional)
E-Mail (optional)
Mit Krypto bezahlen
Warten auf Ihre Zahlung…
Teilweise bezahlt: Senden Sie den Rest.
Bezahlt. Danke!
Bezahlt, mehr als fällig. Danke!
Diese Zahlung ist abgelaufen.
Die Zahlung ist fehlgeschlagen.
Fertig. Danke!
Nichts zu sehen? In neuem Tab öffnen
Schließen
Bezahlung
Netzwerk
Einzahlungsadresse
Memo (erforderlich)
Kopieren
Kopiert
QR-Code der Adresse
Akzeptiert {0}
Kein Netzwerk nimmt hier Einzahlungen an.
Diese Zahlung ist nicht verfügbar.
Diese Methode ist hier nicht verfügbar.
Etwas ist schiefgelaufen. Bitte gleich erneut versuchen.
Bitte prüfen Sie Ihre Angaben.`,
  pt: `Carregando…
Tentar novamente
País
Moeda
Cripto
Forma de pagamento
Forma de recebimento
Você paga
Você recebe
Você vende
Cotação
Taxa de processamento
Taxa de rede
Margem
Total
Atualizado {0}
Continuar
Seu endereço de carteira
Obrigatório.
Mínimo: {0}
Máximo: {0}
Informe um valor válido.
Nenhuma forma para este país e moeda.
Nome (opcional)
E-mail (opcional)
Pagar com cripto
Aguardando seu pagamento…
Pago em parte: envie o restante para concluir.
Pago. Obrigado!
Pago, acima do devido. Obrigado!
Este pagamento expirou.
O pagamento falhou.
Concluído. Obrigado!
Não aparece? Abra em uma nova aba
Fechar
Pagamento
Rede
Endereço de depósito
Memo (obrigatório)
Copiar
Copiado
QR code do endereço
Aceita {0}
Nenhuma rede aceita depósitos aqui.
Este pagamento não está disponível.
Esta forma não está disponível aqui.
Algo deu errado. Tente novamente em instantes.
Verifique seus dados.`,
};

/** Each language's messages in the order of KEYS. */
export const TABLES: Readonly<Record<string, readonly string[]>> = {
  en: Object.values(en),
  ...Object.fromEntries(Object.entries(translations).map(([lang, lines]) => [lang, lines.split('\n')])),
};

/** The languages with a table; anything else falls back to English. */
export const LANGUAGES = /* @__PURE__ */ Object.keys(TABLES);

/** The message `key` in `locale`'s language, `{0}` replaced by `arg`. */
export function msg(locale: string, key: MessageKey, arg = ''): string {
  const table = TABLES[locale.slice(0, 2).toLowerCase()] ?? TABLES.en;
  return (table?.[KEYS.indexOf(key)] ?? en[key]).replace('{0}', arg);
}

/** The message key that explains an error code to a shopper. */
export function errorKey(code: ErrorCode): MessageKey {
  if (/TOKEN_|NOT_FOUND/.test(code)) return 'eGone';
  if (code === 'METHOD_UNAVAILABLE') return 'eMethod';
  return RETRYABLE.test(code) ? 'eRetry' : 'eInput';
}
