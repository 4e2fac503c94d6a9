// The messages in Portuguese, one a line in the order of `en` in ../messages.ts (a test holds each to one line per key).
export default `Carregando…
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
Alterar
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
Verifique seus dados.
Abrir a página de pagamento
Recomeçar
Usar {0}
{0} não é atendido.
Não encontramos o país “{0}”.
Nenhum resultado
Digite um valor para ver sua cotação.
Sem conexão. Verifique sua rede.`;
