// The messages in Portuguese: a block per part of the UI, one line a message in the order of that part's English
// (shared: ../messages.ts; the others: views/<part>.messages.ts). A test holds each block to its keys.
export default {
  shared: `Carregando…
Tentar novamente
Este pagamento não está disponível.
Esta forma não está disponível aqui.
Algo deu errado. Tente novamente em instantes.
Verifique seus dados.
Sem conexão. Verifique sua rede.`,
  ramp: `País
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
agora
Continuar
Seu endereço de carteira
Obrigatório.
Mínimo: {0}
Máximo: {0}
Informe um valor válido.
Nenhuma forma para este país e moeda.
Usar {0}
{0} não é atendido.
Não encontramos o país “{0}”.
Nenhum resultado
Digite um valor para ver sua cotação.
Concluído. Obrigado!
Alterar`,
  pay: `Pagar com cripto`,
  order: `Aguardando seu pagamento…
Pago em parte: envie o restante para concluir.
Pago. Obrigado!
Pago, acima do devido. Obrigado!
Este pagamento expirou.
O pagamento falhou.
Abrir a página de pagamento
Recomeçar`,
  deposit: `Rede
Endereço de depósito
Memo (obrigatório)
Copiar
Copiado
QR code do endereço
Aceita {0}
Nenhuma rede aceita depósitos aqui.`,
  frame: `Pagamento
Não aparece? Abra em uma nova aba
Fechar`,
};
