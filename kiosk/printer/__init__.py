"""Receipt printing: slips as data, ESC/POS bytes, PNG previews, the ports a printer hangs
on and a persistent queue that retries, shared by the director and the table kiosk.

The ESC/POS bytes come from our own small writer (escpos.py), not python-escpos: a slip
needs ten commands (reset, code page, alignment, bold, size, text, native QR, feed, cut,
status), and python-escpos would bring pyusb, libusb, Pillow, qrcode, python-barcode and
YAML profiles onto every table Pi for them. Our writer's output is fixed byte for byte,
so the tests decode it back and compare it with the slip; USB printers are driven through
the kernel's usblp device (/dev/usb/lpN), found by vendor and product id.

Imports nothing of kiosk/: the director and the table both use it.
"""
