#!/bin/sh
# Installs the Debian font packages that bench/gen/cards.py and bench/gen/receipts.py render with
# (dev tools, never the product). Idempotent: apt-get runs only when a package is not installed
# yet, so a second call is instant. Run as root (or with sudo available).
set -eu

PACKAGES="
fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-roboto-unhinted fonts-roboto-slab
fonts-open-sans fonts-lato fonts-cantarell fonts-inter fonts-karla fonts-manrope fonts-sora
fonts-cabin fonts-crosextra-carlito fonts-crosextra-caladea fonts-clear-sans fonts-go fonts-b612
fonts-jura fonts-play fonts-paratype fonts-freefont-ttf fonts-noto-core fonts-adf-switzera
fonts-adf-gillius fonts-adf-baskervald fonts-urw-base35
fonts-bebas-neue fonts-league-spartan fonts-yanone-kaffeesatz fonts-dosis fonts-lobster
fonts-lobstertwo fonts-cherrybomb fonts-rocknroll fonts-reggae fonts-beteckna fonts-allerta
fonts-national-park fonts-comfortaa fonts-quicksand fonts-comic-neue
fonts-ebgaramond fonts-linuxlibertine fonts-vollkorn fonts-cardo fonts-oldstandard
fonts-quattrocento fonts-yrsa-rasa
fonts-dancingscript fonts-kaushanscript fonts-leckerli-one fonts-kristi fonts-dkg-handwriting
fonts-averia-gwf fonts-averia-sans-gwf fonts-averia-serif-gwf
fonts-firacode fonts-jetbrains-mono fonts-hack-ttf fonts-courier-prime fonts-ocr-b
fonts-croscore fonts-noto-mono fonts-inconsolata fonts-hack
"

# One dpkg-query for all packages: the installed ones are listed as "NAME install ok installed".
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null | awk '$4 == "installed" {print $1}')
missing=""
for p in $PACKAGES; do
    case " $(echo $installed) " in
        *" $p "*) ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "ensure-fonts: installing$missing" >&2
$SUDO apt-get update -qq
# Packages a Debian release does not carry are skipped rather than failing the whole install.
available=""
for p in $missing; do
    if apt-cache show "$p" >/dev/null 2>&1; then available="$available $p"; else echo "ensure-fonts: $p not available, skipped" >&2; fi
done
[ -n "$available" ] && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $available >/dev/null
