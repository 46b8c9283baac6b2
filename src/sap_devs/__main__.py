from sap_devs.cli.app import main

if __name__ == "__main__":
    main()
