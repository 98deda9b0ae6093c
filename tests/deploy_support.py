"""Running the shipped deploy/nginx.conf in a test: an unprivileged nginx in a folder."""

from __future__ import annotations

from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def write_nginx_main(folder: Path, upstreams: list[str], listen: int) -> Path:
    """A top-level nginx.conf for an unprivileged nginx in ``folder`` that includes the
    shipped server block as it is, but for the port it listens on."""
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    (folder / "gloom-upstreams.conf").write_text("".join(f"server {u};\n" for u in upstreams))
    block = (DEPLOY / "nginx.conf").read_text()
    block = block.replace("listen 80;", f"listen 127.0.0.1:{listen};").replace("listen [::]:80;\n", "")
    (folder / "gloom-site.conf").write_text(block)
    main = folder / "nginx.conf"
    main.write_text(f"""pid {folder}/nginx.pid;
error_log {folder}/logs/error.log warn;
daemon off;
events {{ worker_connections 512; }}
http {{
    access_log {folder}/logs/access.log;
    client_body_temp_path {folder}/body; proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi; uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;
    include gloom-site.conf;
}}
""")
    return main
