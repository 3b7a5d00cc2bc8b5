"""A private CA for the room and the broker's server certificate.

Uses the `cryptography` package when it is installed and the `openssl` command
otherwise, so provisioning works on a bare laptop as well as in the director venv.
"""

from __future__ import annotations

import datetime
import ipaddress
import secrets
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.base.files import PUBLIC, SECRET, write

CA_DAYS = 3650
SERVER_DAYS = 825   # the longest lifetime TLS clients accept for a server certificate


@dataclass(frozen=True)
class TlsFiles:
    """Paths of the room's PKI inside the provisioning directory."""

    ca_key: Path
    ca_cert: Path
    server_key: Path
    server_cert: Path


def server_names(host: str) -> list[str]:
    """SANs: the director's name or address, plus loopback for the director itself."""
    names = [host, "localhost", "127.0.0.1"]
    return list(dict.fromkeys(names))


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def backend() -> str:
    """'cryptography' or 'openssl', whichever this machine can use."""
    try:
        import cryptography  # noqa: F401
    except ImportError:
        if shutil.which("openssl") is None:
            raise KioskError("--tls needs the 'cryptography' package or the openssl "
                             "command; install one of them") from None
        return "openssl"
    return "cryptography"


def ensure_pki(files: TlsFiles, event: str, host: str, use: str | None = None) -> bool:
    """Create the CA once and a server cert for `host`; True if anything was (re)issued.

    An existing CA is kept so tables already holding ca.crt keep trusting the broker;
    the server certificate is reissued only when the director's name changed.
    """
    use = use or backend()
    issue = _cryptography if use == "cryptography" else _openssl
    changed = False
    if not (files.ca_key.exists() and files.ca_cert.exists()):
        issue.make_ca(files, f"pokerkiosk {event} room CA")
        changed = True
    if changed or not files.server_cert.exists() or not files.server_key.exists() \
            or sorted(issue.sans(files.server_cert)) != sorted(server_names(host)):
        issue.make_server(files, host)
        changed = True
    return changed


class _cryptography:
    @staticmethod
    def make_ca(files: TlsFiles, name: str) -> None:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        now = _now()
        cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now).not_valid_after(now + _days(CA_DAYS))
                .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                             key_encipherment=False, data_encipherment=False,
                                             key_agreement=False, key_cert_sign=True,
                                             crl_sign=True, encipher_only=False,
                                             decipher_only=False), critical=True)
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                               critical=False)
                .sign(key, hashes.SHA256()))
        write(files.ca_key, key.private_bytes(serialization.Encoding.PEM,
                                              serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()), SECRET)
        write(files.ca_cert, cert.public_bytes(serialization.Encoding.PEM), PUBLIC)

    @staticmethod
    def make_server(files: TlsFiles, host: str) -> None:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

        ca_key = serialization.load_pem_private_key(files.ca_key.read_bytes(), None)
        ca = x509.load_pem_x509_certificate(files.ca_cert.read_bytes())
        key = ec.generate_private_key(ec.SECP256R1())
        sans: list[x509.GeneralName] = [
            x509.IPAddress(ipaddress.ip_address(n)) if _is_ip(n) else x509.DNSName(n)
            for n in server_names(host)]
        now = _now()
        cert = (x509.CertificateBuilder()
                .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
                .issuer_name(ca.subject).public_key(key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(now).not_valid_after(now + _days(SERVER_DAYS))
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.SubjectAlternativeName(sans), critical=False)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                               critical=False)
                .sign(ca_key, hashes.SHA256()))  # type: ignore[arg-type]
        write(files.server_key, key.private_bytes(serialization.Encoding.PEM,
                                                  serialization.PrivateFormat.TraditionalOpenSSL,
                                                  serialization.NoEncryption()), SECRET)
        write(files.server_cert, cert.public_bytes(serialization.Encoding.PEM), PUBLIC)

    @staticmethod
    def sans(cert_path: Path) -> list[str]:
        from cryptography import x509

        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        ext = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        return [str(n.value) for n in ext]


class _openssl:
    @staticmethod
    def make_ca(files: TlsFiles, name: str) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            key, crt = Path(tmp, "ca.key"), Path(tmp, "ca.crt")
            _run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", str(key), "-out", str(crt), "-days", str(CA_DAYS),
                 "-subj", f"/CN={name}", "-sha256",
                 "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign")
            write(files.ca_key, key.read_bytes(), SECRET)
            write(files.ca_cert, crt.read_bytes(), PUBLIC)

    @staticmethod
    def make_server(files: TlsFiles, host: str) -> None:
        sans = ",".join(f"{'IP' if _is_ip(n) else 'DNS'}:{n}" for n in server_names(host))
        with tempfile.TemporaryDirectory() as tmp:
            key, csr, crt, ext = (Path(tmp, n) for n in ("s.key", "s.csr", "s.crt", "ext.cnf"))
            ext.write_text(f"basicConstraints=critical,CA:FALSE\nsubjectAltName={sans}\n"
                           "extendedKeyUsage=serverAuth\n")
            _run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                 "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", f"/CN={host}")
            _run("x509", "-req", "-in", str(csr), "-CA", str(files.ca_cert),
                 "-CAkey", str(files.ca_key), "-set_serial", str(_serial()),
                 "-days", str(SERVER_DAYS), "-sha256", "-extfile", str(ext), "-out", str(crt))
            write(files.server_key, key.read_bytes(), SECRET)
            write(files.server_cert, crt.read_bytes(), PUBLIC)

    @staticmethod
    def sans(cert_path: Path) -> list[str]:
        out = _run("x509", "-in", str(cert_path), "-noout", "-ext", "subjectAltName")
        names: list[str] = []
        for line in out.splitlines()[1:]:
            for item in line.split(","):
                kind, _, value = item.strip().partition(":")
                if kind in ("DNS", "IP Address"):
                    names.append(value)
        return names


def _run(*args: str) -> str:
    proc = subprocess.run(["openssl", *args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise KioskError(f"openssl {args[0]} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return proc.stdout


def _serial() -> int:
    return secrets.randbits(120)


def _now() -> datetime.datetime:
    """Backdated a little so a table whose clock lags the director still accepts it."""
    return datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)


def _days(n: int) -> datetime.timedelta:
    return datetime.timedelta(days=n)
