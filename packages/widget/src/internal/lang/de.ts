// The messages in German: a block per part of the UI, one line a message in the order of that part's English
// (shared: ../messages.ts; the others: views/<part>.messages.ts). A test holds each block to its keys.
export default {
  shared: `Wird geladen…
Erneut versuchen
Diese Zahlung ist nicht verfügbar.
Diese Methode ist hier nicht verfügbar.
Etwas ist schiefgelaufen. Bitte gleich erneut versuchen.
Bitte prüfen Sie Ihre Angaben.
Keine Verbindung. Prüfen Sie Ihr Netzwerk.`,
  ramp: `Land
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
jetzt
Weiter
Ihre Wallet-Adresse
Erforderlich.
Minimum: {0}
Maximum: {0}
Bitte einen gültigen Betrag eingeben.
Keine Methode für dieses Land und diese Währung.
Stattdessen {0} verwenden
{0} wird nicht bedient.
Das Land „{0}“ kennen wir nicht.
Keine Treffer
Geben Sie einen Betrag ein, um Ihr Angebot zu sehen.
Fertig. Danke!
Ändern`,
  pay: `Mit Krypto bezahlen`,
  order: `Warten auf Ihre Zahlung…
Teilweise bezahlt: Senden Sie den Rest.
Bezahlt. Danke!
Bezahlt, mehr als fällig. Danke!
Diese Zahlung ist abgelaufen.
Die Zahlung ist fehlgeschlagen.
Zahlungsseite öffnen
Neu beginnen`,
  deposit: `Netzwerk
Einzahlungsadresse
Memo (erforderlich)
Kopieren
Kopiert
QR-Code der Adresse
Akzeptiert {0}
Kein Netzwerk nimmt hier Einzahlungen an.`,
  frame: `Bezahlung
Nichts zu sehen? In neuem Tab öffnen
Schließen`,
};
