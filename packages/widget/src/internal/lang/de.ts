// The messages in German, one a line in the order of `en` in ../messages.ts (a test holds each to one line per key).
export default `Wird geladen…
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
Ändern
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
Bitte prüfen Sie Ihre Angaben.
Zahlungsseite öffnen
Neu beginnen
Stattdessen {0} verwenden
{0} wird nicht bedient.
Das Land „{0}“ kennen wir nicht.
Keine Treffer
Geben Sie einen Betrag ein, um Ihr Angebot zu sehen.
Keine Verbindung. Prüfen Sie Ihr Netzwerk.`;
