# Installs the C library: the header with its C++ and Swift companions, the static and shared
# libraries, and a pkg-config file. ELF systems (Linux, the BSDs), macOS and Windows (mingw-w64:
# TARGET=x86_64-pc-windows-gnu; the DLL goes in BINDIR, beside the programs that load it).
#
#   make install                        # into /usr/local, building the release first
#   make install PREFIX=$HOME/.local    # elsewhere
#   make install DESTDIR=/tmp/stage     # staged for a package; the paths inside stay PREFIX's
#   make uninstall                      # the same variables
#   make dist                           # every release artifact into dist/ (tools/dist/all)
#
# BUILT=DIR installs the libagentsmd.a and shared library already in DIR instead of building:
# the tests install the libraries `cargo test` built. TARGET=TRIPLE builds (or takes from BUILT)
# the release of that Rust target and installs it under its system's names, as when a macOS
# package is staged on Linux: TARGET=aarch64-apple-darwin DESTDIR=... (README.md, "Platforms").

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
CARGO ?= cargo
INSTALL ?= install

# The package version, which the shared library's file name carries on ELF systems. Its soname
# counts the breaks of the C ABI instead (build.rs's SONAME), and libagentsmd.so, the name
# -lagentsmd finds, carries neither.
VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' Cargo.toml | head -n 1)
SONAME := $(shell sed -n 's/^const SONAME: &str = "\(.*\)";$$/\1/p' build.rs)
SHARED := libagentsmd.so.$(VERSION)

# macOS: the target's vendor, or the system make runs on when no target is named.
APPLE := $(if $(TARGET),$(findstring -apple-,$(TARGET)),$(findstring Darwin,$(shell uname -s)))
# musl (TARGET=x86_64-unknown-linux-musl): static only, since Rust builds no shared library for
# a target that links its C runtime statically; the archive is all there is to install.
MUSL := $(findstring -musl,$(TARGET))
# Windows: named by the target (-windows-gnu), or by the mingw or MSYS make runs in.
WINDOWS := $(if $(TARGET),$(findstring -windows-,$(TARGET)),$(findstring MINGW,$(shell uname -s)))

ifdef BUILT
BUILD_DIR := $(BUILT)
else
BUILD_DIR := $(or $(CARGO_TARGET_DIR),target)$(if $(TARGET),/$(TARGET))/release
endif

# The dylib's install name is @rpath/libagentsmd.dylib (build.rs), so a program linked with it
# carries an rpath to LIBDIR, which pkg-config's Libs gives; the archive needs nothing that cc
# does not link on macOS (libSystem), so Libs.private is empty there.
ifdef APPLE
PC_PLATFORM := -e 's|^Libs: .*|Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lagentsmd|' \
	-e 's|^Libs.private: .*|Libs.private:|'
endif
# On Windows -lagentsmd finds the import library; the archive needs what the Rust standard
# library names there.
ifdef WINDOWS
PC_PLATFORM := -e 's|^Libs.private: .*|Libs.private: -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp|'
endif
# FreeBSD: what the Rust standard library names there (backtraces are libexecinfo's).
ifneq ($(findstring -freebsd,$(TARGET)),)
PC_PLATFORM := -e 's|^Libs.private: .*|Libs.private: -lexecinfo -lutil -lrt -lpthread -lm|'
endif

.PHONY: all build install uninstall dist

all: build

# Cargo decides what is stale, so it runs every time. The link lets a program linked in the
# build tree find the library by its soname (a dylib is found by its install name, along the
# program's rpaths).
build:
ifndef BUILT
	$(CARGO) build --release --lib $(if $(TARGET),--target $(TARGET))
ifdef WINDOWS
	cp -f $(BUILD_DIR)/agentsmd.dll $(BUILD_DIR)/libagentsmd.dll
else ifdef MUSL
else ifndef APPLE
	ln -sf libagentsmd.so $(BUILD_DIR)/$(SONAME)
endif
endif

# The module map goes in a directory of its own, so that a Swift compiler's -I finds it alone.
install: build
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/agentsmd $(DESTDIR)$(LIBDIR)/pkgconfig
	$(INSTALL) -m 644 include/agentsmd.h include/agentsmd.hpp $(DESTDIR)$(INCLUDEDIR)/
	sed 's|header "agentsmd.h"|header "../agentsmd.h"|' include/module.modulemap \
		> $(DESTDIR)$(INCLUDEDIR)/agentsmd/module.modulemap
	$(INSTALL) -m 644 $(BUILD_DIR)/libagentsmd.a $(DESTDIR)$(LIBDIR)/
ifdef WINDOWS
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(BUILD_DIR)/agentsmd.dll $(DESTDIR)$(BINDIR)/libagentsmd.dll
	$(INSTALL) -m 644 $(BUILD_DIR)/libagentsmd.dll.a $(DESTDIR)$(LIBDIR)/
else ifdef APPLE
	$(INSTALL) -m 755 $(BUILD_DIR)/libagentsmd.dylib $(DESTDIR)$(LIBDIR)/
else ifdef MUSL
else
	$(INSTALL) -m 755 $(BUILD_DIR)/libagentsmd.so $(DESTDIR)$(LIBDIR)/$(SHARED)
	ln -sf $(SHARED) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libagentsmd.so
endif
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' $(PC_PLATFORM) agentsmd.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/agentsmd.pc

# Every release artifact into dist/: C archives, the Go module, crates, npm, Python (tools/dist).
dist:
	tools/dist/all

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/agentsmd.h $(DESTDIR)$(INCLUDEDIR)/agentsmd.hpp
	rm -f $(DESTDIR)$(INCLUDEDIR)/agentsmd/module.modulemap
	-rmdir $(DESTDIR)$(INCLUDEDIR)/agentsmd
	rm -f $(DESTDIR)$(LIBDIR)/libagentsmd.a $(DESTDIR)$(LIBDIR)/$(SHARED)
	rm -f $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libagentsmd.so
	rm -f $(DESTDIR)$(LIBDIR)/libagentsmd.dylib
	rm -f $(DESTDIR)$(BINDIR)/libagentsmd.dll $(DESTDIR)$(LIBDIR)/libagentsmd.dll.a
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/agentsmd.pc
