// The messages in French: a block per part of the UI, one line a message in the order of that part's English
// (shared: ../messages.ts; the others: views/<part>.messages.ts). A test holds each block to its keys.
export default {
  shared: `Chargement…
Réessayer
Ce paiement n’est pas disponible.
Ce moyen n’est pas disponible ici.
Une erreur est survenue. Réessayez dans un instant.
Vérifiez vos informations.
Pas de connexion. Vérifiez votre réseau.`,
  ramp: `Pays
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
maintenant
Continuer
Votre adresse de portefeuille
Obligatoire.
Minimum : {0}
Maximum : {0}
Saisissez un montant valide.
Aucun moyen pour ce pays et cette devise.
Utiliser {0}
{0} n’est pas desservi.
Nous ne trouvons pas le pays « {0} ».
Aucun résultat
Saisissez un montant pour voir votre devis.
Terminé. Merci !
Modifier`,
  pay: `Payer en crypto`,
  order: `En attente de votre paiement…
Paiement partiel : envoyez le reste pour finaliser.
Payé. Merci !
Payé, plus que dû. Merci !
Ce paiement a expiré.
Le paiement a échoué.
Ouvrir la page de paiement
Recommencer`,
  deposit: `Réseau
Adresse de dépôt
Mémo (obligatoire)
Copier
Copié
QR code de l’adresse
Accepte {0}
Aucun réseau n’accepte de dépôt ici.`,
  frame: `Paiement
Rien ne s’affiche ? Ouvrez un nouvel onglet
Fermer`,
};
