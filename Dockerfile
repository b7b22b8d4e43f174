# The surge image: one static binary and the CA certificates, nothing else.
#   docker build -t registry.example.com/surge:0.1 .
# surge k8s FILE --image registry.example.com/surge:0.1 prints the manifests
# that run it (docs/kubernetes.md).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/surge ./cmd/surge

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/
COPY --from=build /out/surge /usr/local/bin/surge
ENV PATH=/usr/local/bin
# "nonroot", as the manifests' securityContext says.
USER 65532:65532
ENTRYPOINT ["surge"]
