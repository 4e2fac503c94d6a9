// The messages in Spanish: a block per part of the UI, one line a message in the order of that part's English
// (shared: ../messages.ts; the others: views/<part>.messages.ts). A test holds each block to its keys.
export default {
  shared: `Cargando…
Reintentar
Este pago no está disponible.
Este método no está disponible aquí.
Algo ha fallado. Inténtalo de nuevo en un momento.
Revisa tus datos.
Sin conexión. Comprueba tu red.`,
  ramp: `País
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
ahora
Continuar
Tu dirección de billetera
Obligatorio.
Mínimo: {0}
Máximo: {0}
Introduce un importe válido.
No hay métodos para este país y moneda.
Usar {0}
{0} no está disponible.
No encontramos el país «{0}».
Sin resultados
Introduce un importe para ver tu cotización.
Listo. ¡Gracias!
Cambiar`,
  pay: `Pagar con cripto`,
  order: `Esperando tu pago…
Pago parcial: envía el resto para completarlo.
Pagado. ¡Gracias!
Pagado, más de lo debido. ¡Gracias!
Este pago ha caducado.
El pago ha fallado.
Abrir la página de pago
Empezar de nuevo`,
  deposit: `Red
Dirección de depósito
Memo (obligatorio)
Copiar
Copiado
Código QR de la dirección
Acepta {0}
Ninguna red admite depósitos aquí.`,
  frame: `Pago
¿No se ve? Ábrelo en una pestaña nueva
Cerrar`,
};
