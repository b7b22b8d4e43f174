# What the bench scripts share; each sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It sets -euo pipefail, moves to the repository's root ($root), makes the
# temporary directory $dir (removed at exit unless KEEP is set) and runs,
# at exit, the commands given to at_exit, the last first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[1]}")/.."
root=$(pwd)
dir=$(mktemp -d)
_at_exit=()
# at_exit CMD...: run CMD at exit (its failure is ignored).
at_exit() { _at_exit+=("$*"); }
_exit() {
  local i
  for ((i = ${#_at_exit[@]} - 1; i >= 0; i--)); do eval "${_at_exit[i]}" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$dir"
}
trap _exit EXIT

# free_port: a loopback port that was free a moment ago.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# start_nginx PORT: Debian's nginx with one worker on 127.0.0.1:PORT,
# answering every GET with 200 "ok\n", no access log, stopped at exit. Set
# before the call, if need be: NGINX_CONNECTIONS (worker_connections, 4096),
# NGINX_KEEPALIVE_REQUESTS (nginx's own default if unset), NGINX_LISTEN
# (options of the listen directive, such as backlog=4096), NGINX_LOCATIONS
# (more location blocks) and NGINX_WRAP (a command to start nginx under,
# such as taskset -c 0).
start_nginx() {
  local port=$1
  cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
daemon on;
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections ${NGINX_CONNECTIONS:-4096}; }
http {
    access_log off;
    client_body_temp_path $dir/body;
    ${NGINX_KEEPALIVE_REQUESTS:+keepalive_requests $NGINX_KEEPALIVE_REQUESTS;}
    server {
        listen 127.0.0.1:$port ${NGINX_LISTEN:-};
        location / { return 200 "ok\n"; }
        ${NGINX_LOCATIONS:-}
    }
}
CONF
  ${NGINX_WRAP:-} nginx -p "$dir" -c "$dir/nginx.conf"
  at_exit 'kill "$(cat "$dir/nginx.pid")"'
}

# build_surge: the surge binary, built into $dir/surge.
build_surge() { go build -o "$dir/surge" ./cmd/surge; }
