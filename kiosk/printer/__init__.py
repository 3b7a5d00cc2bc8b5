"""Receipt printing: slips as data in their reader's language, ESC/POS bytes, PNG
previews, the ports a printer hangs on and a persistent queue that retries, shared by the
director and the table kiosk.

The ESC/POS bytes come from our own small writer (escpos.py), not python-escpos: a slip
needs a dozen commands (reset, code page, alignment, bold, size, text, raster image,
native QR, feed, cut, status), and python-escpos would bring pyusb, libusb, qrcode,
python-barcode and YAML profiles onto every table Pi for them. Our writer's output is
fixed byte for byte, so the tests decode it back and compare it with the slip; USB
printers are driven through the kernel's usblp device (/dev/usb/lpN), found by vendor
and product id. Each line prints in the code page its letters are in (codepages.py);
Chinese is drawn with Pillow as a raster image (raster.py).

Imports of kiosk/ only kiosk.lang (the catalogues, formats and fonts) and kiosk.base: the
director and the table both use it.
"""
