// The messages in Spanish, one a line in the order of `en` in ../messages.ts (a test holds each to one line per key).
export default `Cargando…
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
Cambiar
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
Revisa tus datos.
Abrir la página de pago
Empezar de nuevo
Usar {0}
{0} no está disponible.
No encontramos el país «{0}».
Sin resultados
Introduce un importe para ver tu cotización.
Sin conexión. Comprueba tu red.`;
